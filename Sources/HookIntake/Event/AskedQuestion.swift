import FleetCore

/// The question a hook asks the phone for its event: the prompt's id, expiry and answer choices, set
/// on the event before it is recorded so the report that carries the prompt carries them too.
///
/// Recorded under the reserved key `lfg_question` (no Claude Code field), so it survives the inbox.
public struct AskedQuestion: Hashable, Sendable {
    public var id: QuestionID
    /// When the hook stops waiting (Unix seconds): the question's `expiresAt`.
    public var expiresAt: UnixTime
    public var options: [String]?
    public var canAlwaysAllow: Bool?

    public init(id: QuestionID, expiresAt: UnixTime, options: [String]? = nil, canAlwaysAllow: Bool? = nil) {
        self.id = id
        self.expiresAt = expiresAt
        self.options = options
        self.canAlwaysAllow = canAlwaysAllow
    }

    /// The reserved key in a recorded event.
    public static let recordKey = "lfg_question"

    /// `prompt` carrying this question.
    public func applied(to prompt: Prompt) -> Prompt {
        var asked = prompt
        asked.id = id.rawValue
        asked.expiresAt = expiresAt
        asked.options = options ?? prompt.options
        asked.canAlwaysAllow = canAlwaysAllow
        return asked
    }

    /// The record's JSON.
    public var json: JSONValue {
        var object: JSONObject = ["id": .string(id.rawValue), "expiresAt": .number(String(expiresAt))]
        if let options { object["options"] = .array(options.map { .string($0) }) }
        if let canAlwaysAllow { object["canAlwaysAllow"] = .bool(canAlwaysAllow) }
        return .object(object)
    }

    /// Reads the record's JSON back; nil when absent or unreadable.
    public init?(json: JSONValue?) {
        guard let json, let id = json["id"]?.stringValue, case .number(let literal) = json["expiresAt"],
            let expiresAt = UnixTime(literal)
        else { return nil }
        self.init(
            id: QuestionID(id), expiresAt: expiresAt, options: json["options"]?.arrayValue?.compactMap(\.stringValue),
            canAlwaysAllow: json["canAlwaysAllow"]?.boolValue)
    }
}
