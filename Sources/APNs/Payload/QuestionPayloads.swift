import FleetCore

/// The time-sensitive alert that asks a question on the phone (contract 8.2): `aps.alert {title, body}`,
/// the kind's category, `interruption-level: time-sensitive`, the session as `thread-id`,
/// `mutable-content: 1`, and top-level `questionId`, `sid`, `kind`, `options`.
///
/// A private device's alert (``AlertDisclosure``) carries no words: the body is the placeholder, there is no
/// title and no `options`, and a sealed one adds `lfgSeal` for the phone's Notification Service Extension.
public struct QuestionAlertPayload: Hashable, Sendable, Encodable {
    public var question: Question
    /// The alert's title (the session's title; the body is the question's text).
    public var title: String
    public var disclosure: AlertDisclosure

    public init(question: Question, title: String, disclosure: AlertDisclosure = .clear) {
        self.question = question
        self.title = title
        self.disclosure = disclosure
    }

    struct Alert: Encodable { let title: String?, body: String }
    struct Seal: Encodable { let kid: String, box: String }

    enum RootKeys: String, CodingKey {
        case aps, questionId, sid, kind, options, canAlwaysAllow
        case lfgSeal = "lfgSeal"  // SealedAlertFormat.payloadKey (a test holds them equal)
    }

    enum APSKeys: String, CodingKey {
        case alert, sound, category
        case interruptionLevel = "interruption-level"
        case threadID = "thread-id"
        case mutableContent = "mutable-content"
    }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: RootKeys.self)
        var aps = root.nestedContainer(keyedBy: APSKeys.self, forKey: .aps)
        let alert = disclosure.showsWords
            ? Alert(title: title, body: question.text) : Alert(title: nil, body: AlertWords.placeholder)
        try aps.encode(alert, forKey: .alert)
        try aps.encode("default", forKey: .sound)
        try aps.encode(QuestionNotificationNames.category(question.kind), forKey: .category)
        try aps.encode("time-sensitive", forKey: .interruptionLevel)
        try aps.encode(question.sid.rawValue, forKey: .threadID)
        try aps.encode(1, forKey: .mutableContent)
        try root.encode(question.id.rawValue, forKey: .questionId)
        try root.encode(question.sid.rawValue, forKey: .sid)
        try root.encode(question.kind.rawValue, forKey: .kind)
        if disclosure.showsWords { try root.encode(question.options, forKey: .options) }
        if case .sealed(let keyID, let box) = disclosure { try root.encode(Seal(kid: keyID, box: box), forKey: .lfgSeal) }
        if question.canAlwaysAllow { try root.encode(true, forKey: .canAlwaysAllow) }
    }
}

extension PushRequest {
    /// A new question's alert to a device's `apnsToken`: `alert` type, the bundle id as topic, priority 10,
    /// the question id as collapse id, and `apns-expiration` = its `expiresAt` when it has one.
    ///
    /// Throws when the id is not a valid collapse id or the payload is over 4096 bytes: nothing is sent.
    public static func questionAlert(
        _ question: Question, title: String, disclosure: AlertDisclosure = .clear, token: DeviceToken,
        environment: PushEnvironment, bundleID: BundleID
    ) throws(PushRequestError) -> PushRequest {
        try PushRequest(
            token: token, environment: environment, pushType: .alert, topic: PushType.alert.topic(bundleID: bundleID),
            priority: .immediate, expiration: question.expiresAt.map { .at(UnixSeconds($0.rounded(.up))) },
            collapseID: CollapseID(question.id.rawValue),
            payload: PushPayload(encoding: QuestionAlertPayload(question: question, title: title, disclosure: disclosure)))
    }

    /// The background push that withdraws a question's delivered alert once it stops being pending:
    /// priority 5, the question id as collapse id, `aps.content-available: 1`,
    /// `event: "question.updated"` and `questionId`.
    public static func questionWithdrawal(
        _ question: Question, token: DeviceToken, environment: PushEnvironment, bundleID: BundleID
    ) throws(PushRequestError) -> PushRequest {
        let payload = BackgroundPayload(custom: [
            "event": QuestionNotificationNames.updatedEvent, "questionId": question.id.rawValue,
        ])
        return try PushRequest(
            token: token, environment: environment, pushType: .background,
            topic: PushType.background.topic(bundleID: bundleID), priority: .powerConsidered,
            collapseID: CollapseID(question.id.rawValue), payload: PushPayload(encoding: payload))
    }
}
