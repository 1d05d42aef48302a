import FleetCore

/// Every question the server knows and the lifecycle rules (contract 8.2), as a pure value:
/// events in, effects out. A question is `pending` until the first answer, its expiry, or its prompt
/// leaving the session (`cancelled`), and never changes after that.
///
/// The driver (``ControlPlaneService``) commits the `save`/`forget` effects before it keeps the new book,
/// then wakes the waiters and sends the pushes.
public struct QuestionBook: Hashable, Sendable {
    /// Resolved questions kept (memory and store) for `GET /api/questions`; older ones are forgotten.
    public static let resolvedLimit = 1000

    public private(set) var questions: [QuestionID: Question] = [:]
    /// The pending question of each session: the one its prompt asks now.
    private var pendingBySession: [SessionID: QuestionID] = [:]
    /// Seconds until a question whose prompt gives no `expiresAt` expires.
    public var defaultLifetime: Double

    public init(defaultLifetime: Double = QuestionBook.defaultLifetime) { self.defaultLifetime = defaultLifetime }

    /// The default of ``defaultLifetime``: Claude Code's own default hook timeout (600 s).
    public static let defaultLifetime: Double = 600

    /// One question by id.
    public subscript(id: QuestionID) -> Question? { questions[id] }

    /// Every question, oldest first (ties by id), optionally only those in `state`.
    public func list(state: Question.State? = nil) -> [Question] {
        questions.values.filter { state == nil || $0.state == state }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    // MARK: events

    /// The stored questions arrived at start. A pending question whose session no longer shows its
    /// prompt was answered elsewhere while the server was down (cancelled); one past its expiry expired.
    public mutating func load(_ stored: [Question], sessions: [SessionID: SessionReport], at now: UnixTime)
        -> [QuestionEffect]
    {
        for question in stored { questions[question.id] = question }
        var effects: [QuestionEffect] = []
        for question in list(state: .pending) {
            let prompt = sessions[question.sid].flatMap { $0.archived ? nil : $0.prompt }
            if prompt?.id != question.id.rawValue {
                effects += resolve(question.id, as: .cancelled, answer: nil, by: nil, at: now)
            } else {
                pendingBySession[question.sid] = question.id
            }
        }
        return effects + expire(at: now)
    }

    /// A session's prompt as it is now (nil when it has none, was archived or deleted).
    ///
    /// - Parameter isSessionGone: the session was deleted or archived, so a cancelled question was not
    ///   answered at the terminal as far as anyone knows (`answeredBy` stays null).
    public mutating func promptReported(_ sid: SessionID, _ prompt: Prompt?, isSessionGone: Bool = false, at now: UnixTime)
        -> [QuestionEffect]
    {
        let asked = prompt.flatMap { Question.asked(by: $0, in: sid, at: now, defaultLifetime: defaultLifetime) }
        var effects: [QuestionEffect] = []
        if let current = pendingBySession[sid], current != asked?.id {
            // The prompt cleared or changed before an answer: the person answered at the terminal.
            effects += resolve(
                current, as: .cancelled, answer: nil, by: isSessionGone ? nil : Question.answeredAtTerminal, at: now)
        }
        // A prompt id already known (answered and still on screen, or another session's) asks nothing new.
        guard let asked, questions[asked.id] == nil else { return effects }
        questions[asked.id] = asked
        pendingBySession[sid] = asked.id
        return effects + [.save(asked), .alert(asked)]
    }

    /// An answer from a device (`POST /api/questions/{id}/answer`): the first one wins.
    public mutating func answer(_ id: QuestionID, _ answer: String, by deviceId: DeviceID?, at now: UnixTime)
        -> QuestionAnswerResult
    {
        guard let question = questions[id] else { return .unknown }
        var effects: [QuestionEffect] = []
        if question.state == .pending, question.isPastExpiry(at: now) {
            effects = resolve(id, as: .expired, answer: nil, by: nil, at: now)
        }
        let current = questions[id]!
        guard current.state == .pending else { return .notPending(current, effects) }
        guard current.accepts(answer) else { return .notAccepted(current) }
        effects += resolve(id, as: .answered, answer: answer, by: deviceId?.rawValue, at: now)
        return .answered(questions[id]!, effects)
    }

    /// Time passed: every pending question at or past its expiry expires.
    public mutating func expire(at now: UnixTime) -> [QuestionEffect] {
        list(state: .pending).filter { $0.isPastExpiry(at: now) }.flatMap {
            resolve($0.id, as: .expired, answer: nil, by: nil, at: now)
        }
    }

    /// The earliest expiry among pending questions (when the driver must next call ``expire(at:)``).
    public var nextExpiry: UnixTime? { list(state: .pending).compactMap(\.expiresAt).min() }

    /// Questions another instance sharing the database wrote, as stored now (nil: forgotten there). The
    /// store is the truth, with one exception: a question resolved here never turns pending again.
    ///
    /// Nothing is saved (it is stored already) and nothing logged (the writer did both); the effects wake
    /// the waiters of a resolved question, tell `/api/events`, and alert or withdraw on the devices *this*
    /// instance drives, since the writer pushes only to its own.
    public mutating func adopt(_ stored: [QuestionID: Question?], at now: UnixTime) -> [QuestionEffect] {
        var effects: [QuestionEffect] = []
        for (id, question) in stored.sorted(by: { $0.key < $1.key }) {
            guard let question else {
                if let gone = questions.removeValue(forKey: id), pendingBySession[gone.sid] == id {
                    pendingBySession[gone.sid] = nil
                }
                continue
            }
            let current = questions[id]
            if current == question { continue }
            if let current, current.state != .pending, question.state == .pending { continue }
            questions[id] = question
            effects.append(.adopted(question))
            if question.state == .pending {
                pendingBySession[question.sid] = id
                if current == nil, !question.isPastExpiry(at: now) { effects.append(.alert(question)) }
                continue
            }
            if pendingBySession[question.sid] == id { pendingBySession[question.sid] = nil }
            effects.append(.resolved(question))
            if current?.state == .pending { effects.append(.withdraw(question)) }
        }
        return effects
    }

    // MARK: resolving

    private mutating func resolve(
        _ id: QuestionID, as state: Question.State, answer: String?, by answeredBy: String?, at now: UnixTime
    ) -> [QuestionEffect] {
        guard var question = questions[id], question.state == .pending else { return [] }
        question.state = state
        question.answer = answer
        question.answeredBy = answeredBy
        questions[id] = question
        if pendingBySession[question.sid] == id { pendingBySession[question.sid] = nil }
        return [.save(question), .resolved(question), .withdraw(question), .log(QuestionLog.resolved(question, at: now))]
            + forgetOldResolved()
    }

    /// Keeps at most ``resolvedLimit`` resolved questions, forgetting the oldest.
    private mutating func forgetOldResolved() -> [QuestionEffect] {
        let resolved = questions.values.filter { $0.state != .pending }
        guard resolved.count > Self.resolvedLimit else { return [] }
        let oldest = resolved.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .prefix(resolved.count - Self.resolvedLimit).map(\.id)
        for id in oldest { questions[id] = nil }
        return [.forget(Array(oldest))]
    }
}

/// What the driver must do after a ``QuestionBook`` event; the book performs none of it itself.
public enum QuestionEffect: Hashable, Sendable {
    /// Persist the question (one transaction with the event's other writes).
    case save(Question)
    /// Another instance sharing the database stored this question: it is as stored (nothing to persist).
    case adopted(Question)
    /// Remove these resolved questions from the store.
    case forget([QuestionID])
    /// Send the time-sensitive alert for a new question to every device's `apnsToken`.
    case alert(Question)
    /// Send the background push that withdraws the question's delivered alert.
    case withdraw(Question)
    /// The question stopped being pending: wake everyone waiting on it.
    case resolved(Question)
    case log(DecisionLogLine)
}

/// The outcome of an answer.
public enum QuestionAnswerResult: Hashable, Sendable {
    /// The answer won; carry out the effects.
    case answered(Question, [QuestionEffect])
    /// The question was already answered, expired or cancelled (a 409 with the question as it stands);
    /// the effects are non-empty when the answer arrived past the expiry and found it still pending.
    case notPending(Question, [QuestionEffect])
    /// Not one of a confirm/choice question's options, or blank text (a 400); nothing changed.
    case notAccepted(Question)
    /// No such question (a 404).
    case unknown
}
