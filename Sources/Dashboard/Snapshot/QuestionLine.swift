import FleetCore

extension DashboardSnapshot {
    /// One pending question as the dashboard lists it, with what it takes to answer it there.
    public struct QuestionLine: Encodable, Sendable, Equatable {
        public var id: String
        public var sid: String
        /// The asking session's title ("" when the session is gone).
        public var title: String
        /// `confirm`, `choice` or `text`.
        public var kind: String
        public var text: String
        /// The answers offered as buttons: the options, plus "Always allow" where it is accepted.
        public var answers: [String]
        /// Whether the answer is typed (a text question).
        public var takesText: Bool
        public var askedLabel: String
        /// Seconds left before it expires, or nil without an expiry.
        public var expiresInSeconds: Double?

        /// The line for `question`, asked in a session titled `title`, at `now`.
        public init(_ question: Question, title: String, now: UnixTime) {
            id = question.id.rawValue
            sid = question.sid.rawValue
            self.title = title
            kind = question.kind.rawValue
            text = question.text
            answers = question.options
            if question.canAlwaysAllow {
                answers.insert(Question.alwaysAllowAnswer, at: min(1, answers.count))
            }
            takesText = question.kind == .text
            askedLabel = ElapsedLabel.text(since: question.createdAt, now: now)
            expiresInSeconds = question.expiresAt.map { max(0, $0 - now) }
        }
    }

    /// The device id a dashboard answer is recorded under (`answeredBy`): the dashboard answers as a second
    /// device would.
    public static let answeringDeviceID = "dashboard"
}
