import FleetCore
import Foundation

/// How an answer ended (`POST /api/questions/{id}/answer`).
public enum QuestionAnswerOutcome: Hashable, Sendable {
    /// The first answer: it won (200).
    case answered(Question)
    /// The question was no longer pending: answered, expired or cancelled (409 with the question as it stands).
    case notPending(Question)
    /// Not one of a confirm/choice question's options, or blank text (400); nothing changed.
    case notAccepted(Question)
}

/// How a long poll starts (`GET /api/questions/{id}/wait`).
enum QuestionWaitStart: Sendable {
    /// The question is no longer pending: answer at once.
    case settled(Question)
    /// Parked until it resolves or the timeout passes.
    case parked(QuestionWaiters.Ticket)
    /// Too many waiters already.
    case full
}

extension [QuestionEffect] {
    /// The store writes among the effects (committed before anything else is carried out).
    var writes: [StoreWrite] {
        compactMap { effect in
            switch effect {
            case .save(let question): .putQuestion(question)
            case .forget(let ids): .deleteQuestions(ids)
            case .alert, .withdraw, .resolved, .log: nil
            }
        }
    }
}

extension ControlPlaneService {
    // MARK: reading

    /// Every question, oldest first, optionally only those in `state`.
    public func questionList(state: Question.State? = nil) -> [Question] { questions.list(state: state) }

    /// One question by id.
    public func question(_ id: QuestionID) -> Question? { questions[id] }

    // MARK: changing

    /// Answers a question; the first answer wins. Throws only when the store failed (nothing changed).
    public func answerQuestion(_ id: QuestionID, _ answer: String, by deviceId: DeviceID?)
        async throws(ServiceError) -> QuestionAnswerOutcome
    {
        await acquire()
        defer { release() }
        var book = questions
        let result = book.answer(id, answer, by: deviceId, at: now)
        let outcome: QuestionAnswerOutcome
        let effects: [QuestionEffect]
        switch result {
        case .unknown: throw .notFound("no question '\(id)'")
        case .notAccepted(let question): return .notAccepted(question)
        case .answered(let question, let changes): (outcome, effects) = (.answered(question), changes)
        case .notPending(let question, let changes): (outcome, effects) = (.notPending(question), changes)
        }
        do { try await dependencies.store.commit(effects.writes) } catch { throw .store(error) }
        questions = book
        await carryOut(effects)
        return outcome
    }

    /// Starts a long poll on `id` atomically with the question's state (no resolution slips between the
    /// check and the parking); nil when there is no such question.
    func startWaiting(on id: QuestionID) -> QuestionWaitStart? {
        guard let question = questions[id] else { return nil }
        guard question.state == .pending else { return .settled(question) }
        guard let ticket = questionWaiters.register(id) else { return .full }
        return .parked(ticket)
    }

    /// Expires every pending question past its expiry (each tick).
    func expireQuestions() async {
        await acquire()
        defer { release() }
        var book = questions
        let effects = book.expire(at: now)
        guard !effects.isEmpty else { return }
        do { try await dependencies.store.commit(effects.writes) } catch {
            dependencies.reportProblem("expiring questions failed: \(error); the next tick retries")
            return
        }
        questions = book
        await carryOut(effects)
    }

    /// Loads the stored questions at start (hold the lock): stale pending ones are cancelled or expired.
    func loadQuestions(_ stored: [Question], sessions: [SessionID: SessionReport]) async throws(StoreError) {
        var book = questions
        let effects = book.load(stored, sessions: sessions, at: now)
        if !effects.writes.isEmpty { try await dependencies.store.commit(effects.writes) }
        questions = book
        await carryOut(effects)
    }

    // MARK: carrying out

    /// Carries out committed question effects: wakes waiters, queues pushes, logs, tells `/api/events`.
    func carryOut(_ effects: [QuestionEffect]) async {
        var lines: [DecisionLogLine] = []
        for effect in effects {
            switch effect {
            case .save(let question): publishQuestion(question)
            case .forget: break
            case .resolved(let question): questionWaiters.resolve(question.id)
            case .alert(let question): enqueue(.ask, question)
            case .withdraw(let question): enqueue(.withdraw, question)
            case .log(let line): lines.append(line)
            }
        }
        await record(lines)
    }

    private func enqueue(_ action: QuestionPush.Action, _ question: Question) {
        guard dependencies.questionNotifier != nil else { return }
        let targets = watcher.deviceIds.compactMap { deviceId -> QuestionPush.Target? in
            let profile = watcher.boxes[deviceId]!.record.profile
            guard let hex = profile.apnsToken, let env = profile.env else { return nil }
            return QuestionPush.Target(deviceId: deviceId, env: env, hex: hex)
        }
        guard !targets.isEmpty else { return }
        let title = fleet.sessions[question.sid]?.title ?? ""
        questionOutbox.append(QuestionPush(
            action: action, question: question, title: title.isEmpty ? "Your agent asks" : title, targets: targets))
        questionOutboxSignal.notify()
    }

    private func publishQuestion(_ question: Question) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(question) else { return }
        events.publish("question", json: data)
    }

    // MARK: sending

    /// Sends every queued question push (while the push gate is open), logs an `alert` line per device,
    /// and prunes alert tokens APNs calls dead (seed 002). The tick loop runs it; tests call it directly.
    public func sendQuestionPushes() async {
        let pushes = questionOutbox
        questionOutbox.removeAll()
        guard !pushes.isEmpty, let notifier = dependencies.questionNotifier else { return }
        if let reason = pushGateReason {
            dependencies.reportProblem("\(pushes.count) question push(es) not sent: \(reason)")
            return
        }
        let answers = await withTaskGroup(of: (Int, [QuestionPush.Result]).self) { group in
            for (index, push) in pushes.enumerated() { group.addTask { (index, await notifier.deliver(push)) } }
            var answers = [[QuestionPush.Result]](repeating: [], count: pushes.count)
            for await (index, results) in group { answers[index] = results }
            return answers
        }
        await recordQuestionPushes(Array(zip(pushes, answers)))
    }

    private func recordQuestionPushes(_ sent: [(QuestionPush, [QuestionPush.Result])]) async {
        await acquire()
        defer { release() }
        let at = now
        var lines: [DecisionLogLine] = []
        var prunes: [WatcherEvent] = []
        for (push, results) in sent {
            for result in results {
                lines.append(QuestionLog.sent(push, result, at: at))
                guard result.outcome == .tokenDead,
                    var profile = watcher.boxes[result.target.deviceId]?.record.profile,
                    profile.apnsToken == result.target.hex
                else { continue }
                // Seed 002: a dead alert token is set to null; the app registers a new one with its next PUT.
                profile.apnsToken = nil
                prunes.append(.deviceReported(result.target.deviceId, profile, at: at))
                lines.append(QuestionLog.pruned(result, at: at))
            }
        }
        if !prunes.isEmpty {
            do { _ = try await apply(prunes) } catch {
                dependencies.reportProblem("pruning dead alert tokens failed: \(error); the next answer retries")
            }
        }
        await record(lines)
    }

    /// Sends question pushes whenever some are queued, until cancelled.
    func runQuestionPushes() async {
        let signal = questionOutboxSignal
        while !Task.isCancelled {
            await signal.wait()
            if Task.isCancelled { return }
            await sendQuestionPushes()
        }
    }
}
