/// What a host reports about one session (`PUT /api/sessions/{sid}`), with the contract's defaults.
///
/// Decoding is lenient about missing keys and strict about types, so a wrong type throws a
/// `DecodingError` whose coding path names the field (see ``InputError``).
public struct SessionReport: Hashable, Sendable, Codable {
    /// The longest title kept, in characters: a longer one is cut to this many, the last being "…"
    /// (a documented cut, not a 400, so a hook's report is never lost over its title). The card
    /// shortens further to fit a push (``CardTitle``).
    public static let maximumTitleLength = 1_000

    public var title: String
    public var host: HostID
    public var cwd: String
    public var busy: Bool
    public var blocked: Bool
    public var unread: Bool
    public var prompt: Prompt?
    public var step: String?
    public var archived: Bool

    public init(
        title: String = "", host: HostID = .local, cwd: String = "", busy: Bool = false, blocked: Bool = false,
        unread: Bool = false, prompt: Prompt? = nil, step: String? = nil, archived: Bool = false
    ) {
        self.title = title
        self.host = host
        self.cwd = cwd
        self.busy = busy
        self.blocked = blocked
        self.unread = unread
        self.prompt = prompt
        self.step = step
        self.archived = archived
    }

    /// The members' names (public: ``WireFieldsDecodable`` reads by them).
    public enum CodingKeys: String, CodingKey { case title, host, cwd, busy, blocked, unread, prompt, step, archived }

    public init(from decoder: any Decoder) throws { try self.init(decoder: decoder) }

    /// `title`, cut to ``maximumTitleLength`` characters (ending in "…") when longer.
    public static func keptTitle(_ title: String) -> String {
        // No more bytes than the limit means no more characters: the usual title is not walked by grapheme.
        guard title.utf8.count > maximumTitleLength, title.count > maximumTitleLength else { return title }
        return String(title.prefix(maximumTitleLength - 1)) + String(CardTitle.ellipsis)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(host, forKey: .host)
        try container.encode(cwd, forKey: .cwd)
        try container.encode(busy, forKey: .busy)
        try container.encode(blocked, forKey: .blocked)
        try container.encode(unread, forKey: .unread)
        try container.encode(prompt, forKey: .prompt)  // null, not absent: a merge patch can clear it
        try container.encodeIfPresent(step, forKey: .step)
        try container.encode(archived, forKey: .archived)
    }
}

extension SessionReport: WireFieldsDecodable {
    public typealias FieldKey = CodingKeys

    /// The one decoding of a report, whichever way it is read (`init(from:)`, or ``init(json:)`` for a
    /// request body): a missing or null member takes the contract's default, a wrong type throws naming it.
    public init<Reader: WireFieldReader>(reading fields: Reader) throws where Reader.Key == CodingKeys {
        title = Self.keptTitle(try fields.string(.title) ?? "")
        host = try fields.string(.host).map(HostID.init(rawValue:)) ?? .local
        cwd = try fields.string(.cwd) ?? ""
        busy = try fields.bool(.busy) ?? false
        blocked = try fields.bool(.blocked) ?? false
        unread = try fields.bool(.unread) ?? false
        prompt = try fields.nested(Prompt.self, .prompt)
        step = try fields.string(.step)
        archived = try fields.bool(.archived) ?? false
    }
}

extension Prompt: WireFieldsDecodable {
    public typealias FieldKey = CodingKeys

    public init<Reader: WireFieldReader>(reading fields: Reader) throws where Reader.Key == CodingKeys {
        id = try fields.string(.id)
        kind = try fields.decode(Kind.self, .kind) ?? .question
        text = try fields.string(.text) ?? ""
        options = try fields.decode([String].self, .options)
        expiresAt = try fields.number(.expiresAt)
        canAlwaysAllow = try fields.bool(.canAlwaysAllow)
    }
}

extension SessionReport: WireJSONWritable {
    /// The bytes of ``encode(to:)`` under `WireJSON` (keys sorted), written directly: every stored session
    /// row is one (`WireJSONWriterTests` compares the two).
    public func write(to writer: inout WireJSONWriter) throws {
        writer.beginObject()
        writer.member("archived", archived)
        writer.member("blocked", blocked)
        writer.member("busy", busy)
        writer.member("cwd", cwd)
        try writer.member("host", host)
        try writer.member("prompt", orNull: prompt)
        writer.member("step", ifPresent: step)
        writer.member("title", title)
        writer.member("unread", unread)
        writer.endObject()
    }
}

extension Prompt: WireJSONWritable {
    /// The bytes of the synthesized `encode(to:)` under `WireJSON` (absent optionals left out, keys sorted).
    public func write(to writer: inout WireJSONWriter) throws {
        writer.beginObject()
        writer.member("canAlwaysAllow", ifPresent: canAlwaysAllow)
        try writer.member("expiresAt", ifPresent: expiresAt)
        writer.member("id", ifPresent: id)
        writer.member("kind", kind.rawValue)
        writer.member("options", ifPresent: options)
        writer.member("text", text)
        writer.endObject()
    }
}

/// Something a session waits on a person for.
///
/// A prompt with an ``id`` becomes a ``Question`` on the server (contract 8.2): answerable from the phone.
public struct Prompt: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable, WireChoice {
        case question, permission, plan, signin

        public init(from decoder: any Decoder) throws { try self.init(choosingFrom: decoder) }
    }

    public var id: String?
    public var kind: Kind
    public var text: String
    /// The choices of a multiple-choice question (contract 8.2); nil or empty: a free-text question.
    public var options: [String]?
    /// When an answer stops being useful (Unix seconds; an extension): the hook sets it to the end of its
    /// wait, so the phone is not asked a question nobody will hear the answer to. Nil: the server's default.
    public var expiresAt: UnixTime?
    /// Whether "always allow" may answer this permission prompt (an extension): the hook sets it when
    /// Claude Code offered `permission_suggestions` to persist.
    public var canAlwaysAllow: Bool?

    public init(
        id: String? = nil, kind: Kind, text: String, options: [String]? = nil, expiresAt: UnixTime? = nil,
        canAlwaysAllow: Bool? = nil
    ) {
        self.id = id
        self.kind = kind
        self.text = text
        self.options = options
        self.expiresAt = expiresAt
        self.canAlwaysAllow = canAlwaysAllow
    }

    /// The members' names (public: ``WireFieldsDecodable`` reads by them).
    public enum CodingKeys: String, CodingKey { case id, kind, text, options, expiresAt, canAlwaysAllow }

    public init(from decoder: any Decoder) throws { try self.init(decoder: decoder) }
}
