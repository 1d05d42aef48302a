import FleetCore
import Foundation

/// What the app reads of a question's alert push (contract 8.2): the top-level `questionId`, `sid`,
/// `kind`, `options` and `canAlwaysAllow` beside `aps`.
///
/// Decoding is lenient (a missing list is empty), but an alert without a question id or sid is not a
/// question alert: ``init(payload:)`` refuses it, so no answer is ever posted to an empty id.
public struct QuestionAlert: Hashable, Sendable, Codable {
    public var questionId: QuestionID
    public var sid: SessionID
    public var kind: Question.Kind
    public var options: [String]
    public var canAlwaysAllow: Bool

    public init(questionId: QuestionID, sid: SessionID, kind: Question.Kind, options: [String], canAlwaysAllow: Bool = false) {
        self.questionId = questionId
        self.sid = sid
        self.kind = kind
        self.options = options
        self.canAlwaysAllow = canAlwaysAllow
    }

    /// The alert a question's push carries, as the server builds it.
    public init(_ question: Question) {
        self.init(
            questionId: question.id, sid: question.sid, kind: question.kind, options: question.options,
            canAlwaysAllow: question.canAlwaysAllow)
    }

    enum CodingKeys: String, CodingKey { case questionId, sid, kind, options, canAlwaysAllow }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        questionId = try container.decode(QuestionID.self, forKey: .questionId)
        sid = try container.decode(SessionID.self, forKey: .sid)
        kind = try container.decodeIfPresent(Question.Kind.self, forKey: .kind) ?? .text
        options = try container.decodeIfPresent([String].self, forKey: .options) ?? []
        canAlwaysAllow = try container.decodeIfPresent(Bool.self, forKey: .canAlwaysAllow) ?? false
    }

    /// The alert in a push's JSON (the notification's `userInfo` serialized), or nil when it is not a
    /// question alert (another push, or one without a question id or sid).
    public init?(payload: Data) {
        guard let alert = try? JSONDecoder().decode(QuestionAlert.self, from: payload),
            !alert.questionId.rawValue.isEmpty, !alert.sid.rawValue.isEmpty
        else { return nil }
        self = alert
    }

    /// The delivered notification's identifier: APNs gives an alert its `apns-collapse-id`, the question id.
    public var notificationIdentifier: String { questionId.rawValue }
}

/// The background push that says a question stopped being pending (`event: "question.updated"`).
public struct QuestionUpdatedPush: Hashable, Sendable, Decodable {
    public var questionId: QuestionID

    enum CodingKeys: String, CodingKey { case event, questionId }

    public init(questionId: QuestionID) { self.questionId = questionId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(String.self, forKey: .event) == QuestionNotificationNames.updatedEvent else {
            throw DecodingError.dataCorruptedError(
                forKey: .event, in: container, debugDescription: "not a \(QuestionNotificationNames.updatedEvent) push")
        }
        questionId = try container.decode(QuestionID.self, forKey: .questionId)
    }

    /// The push in a background notification's JSON, or nil when it is another push.
    public init?(payload: Data) {
        guard let push = try? JSONDecoder().decode(QuestionUpdatedPush.self, from: payload),
            !push.questionId.rawValue.isEmpty
        else { return nil }
        self = push
    }
}
