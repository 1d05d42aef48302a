import FleetCore

/// The app's answers to questions: one answer per question id, posted, retried while the network fails,
/// and never posted twice (a tap on the card and on the alert, or a retry after a lost reply, all reach
/// the same entry). Pure: events in, effects out, time a parameter.
///
/// A question the server no longer holds pending (409) is not retried: its body says who was first, and
/// the person is told. A retry whose first post did land meets a 409 naming this device and this answer,
/// which counts as answered: that is what makes the retries safe.
public struct QuestionAnswerer: Hashable, Sendable {
    /// Where one question's answer is.
    public enum Status: Hashable, Sendable {
        /// A post is in flight.
        case posting
        /// The last post failed on the network or a 5xx/429; the next goes at `retryAt`.
        case waiting(retryAt: UnixTime)
        /// The server took this device's answer.
        case answered
        /// The server holds another answer, or the question ended first: the person was told.
        case notTaken(Question)
        /// The server refused the answer (400, 401, 404) or the retries ran out: the person was told.
        case failed(String)
    }

    public struct Entry: Hashable, Sendable {
        public var answer: String
        public var sid: SessionID?
        public var status: Status
        public var failures: Int
        public var firstPostedAt: UnixTime
    }

    /// What to carry out.
    public enum Effect: Hashable, Sendable {
        /// `POST /api/questions/{id}/answer`.
        case post(QuestionID, answer: String)
        /// Remove the question's delivered alert (its identifier is the question id).
        case removeDeliveredAlert(QuestionID)
        /// Tell the person.
        case notify(AnswerNotice)
    }

    /// Every question answered from this process, by id.
    public private(set) var entries: [QuestionID: Entry] = [:]
    public let backoff: RegistrationBackoff
    /// Seconds after the first post when retrying stops (no agent waits for the phone longer: the hook's
    /// longest wait is 540 s).
    public let retryLimit: Double
    /// Resolved entries kept (for idempotency) before the oldest are forgotten.
    public static let retainedEntries = 64

    public init(backoff: RegistrationBackoff = RegistrationBackoff(initial: 1, maximum: 30), retryLimit: Double = 600) {
        self.backoff = backoff
        self.retryLimit = retryLimit
    }

    /// The person answered `id` with `answer` (from an alert, the card or the app). A question already
    /// answered or being answered from here is left alone; one whose answer failed may be answered again.
    public mutating func answer(_ id: QuestionID, _ answer: String, sid: SessionID?, at now: UnixTime) -> [Effect] {
        if let entry = entries[id], !entry.isRetryable { return [] }
        entries[id] = Entry(answer: answer, sid: sid, status: .posting, failures: 0, firstPostedAt: now)
        forgetOldEntries()
        return [.post(id, answer: answer)]
    }

    /// The server answered a post of `id`: the question as it stands (a 200 or a 409), or an error.
    public mutating func posted(
        _ id: QuestionID, _ result: Result<Question, ControlPlaneError>, deviceID: DeviceID, at now: UnixTime
    ) -> [Effect] {
        guard var entry = entries[id], entry.status == .posting else { return [] }
        defer { entries[id] = entry }
        switch result {
        case .success(let question):
            if question.state == .answered, question.answeredBy == deviceID.rawValue, question.answer == entry.answer {
                entry.status = .answered
                return [.removeDeliveredAlert(id)]
            }
            entry.status = .notTaken(question)
            return [.removeDeliveredAlert(id), .notify(AnswerNotice(notTaken: question))]
        case .failure(let error):
            entry.failures += 1
            let retryAt = now + backoff.delay(afterFailures: entry.failures)
            if error.isTransient, retryAt < entry.firstPostedAt + retryLimit {
                entry.status = .waiting(retryAt: retryAt)
                return []
            }
            let why = error.isTransient ? "the server could not be reached for \(Int(retryLimit)) s" : "\(error)"
            entry.status = .failed(why)
            return [.notify(AnswerNotice(questionId: id, sid: entry.sid, text: "Your answer was not sent: \(why)"))]
        }
    }

    /// Posts again every answer whose retry is due by `now`.
    public mutating func retriesDue(at now: UnixTime) -> [Effect] {
        var effects: [Effect] = []
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard case .waiting(let retryAt) = entry.status, retryAt <= now else { continue }
            entries[id]?.status = .posting
            effects.append(.post(id, answer: entry.answer))
        }
        return effects
    }

    /// A `question.updated` push arrived: the question is no longer pending, so its alert goes. An answer
    /// still retrying keeps going: its 409 will say whether it was this device's.
    public mutating func questionSettled(_ id: QuestionID) -> [Effect] { [.removeDeliveredAlert(id)] }

    /// When the next retry falls due, or nil.
    public var nextRetryAt: UnixTime? {
        entries.values.compactMap { if case .waiting(let at) = $0.status { at } else { nil } }.min()
    }

    mutating func forgetOldEntries() {
        guard entries.count > Self.retainedEntries else { return }
        let resolved = entries.filter { $0.value.isResolved }.sorted { $0.value.firstPostedAt < $1.value.firstPostedAt }
        for (id, _) in resolved.prefix(entries.count - Self.retainedEntries) { entries[id] = nil }
    }
}

extension QuestionAnswerer.Entry {
    /// Whether a new answer may replace this one (only after a failure).
    var isRetryable: Bool { if case .failed = status { true } else { false } }
    /// Whether nothing more will happen to it.
    var isResolved: Bool {
        switch status {
        case .posting, .waiting: false
        case .answered, .notTaken, .failed: true
        }
    }
}
