/// The words of an alert that privacy mode keeps from Apple (contract 8.3): sealed to the device's key as one
/// small JSON object, `{"body": ..., "options": [...], "title": ...}`, and opened on the phone by the
/// Notification Service Extension. The server writes it and the app reads it through this one type.
public struct AlertWords: Hashable, Sendable {
    /// The alert's title: the session's title.
    public var title: String
    /// The alert's text: the question.
    public var body: String
    /// The answers offered, in order (empty for a free-text question).
    public var options: [String]

    public init(title: String, body: String, options: [String] = []) {
        self.title = title
        self.body = body
        self.options = options
    }

    /// What every private alert says where Apple can read it: that a session wants attention, not what it said.
    public static let placeholder = "A session needs you"
    /// The most UTF-8 bytes of sealed words in one alert: sealed, base64'd and named with its key id that is
    /// under 2.9 KB of the push, leaving APNs' 4,096 room for the rest.
    public static let maximumSealedBytes = 2048
    /// The most JSON-encoded bytes a title keeps, and each option.
    public static let maximumTitleBytes = 240
    public static let maximumOptionBytes = 120
    /// The most JSON-encoded bytes all options together keep (options past it are left out).
    public static let maximumOptionsBytes = 720

    /// The JSON object, as sealed.
    public var json: JSONValue {
        .object([
            "body": .string(body), "options": .array(options.map { .string($0) }), "title": .string(title),
        ])
    }

    /// The sealed plaintext: ``json`` printed compactly, UTF-8.
    public var sealedBytes: [UInt8] { Array(json.compactPrinted().utf8) }

    /// These words shortened to fit `budget` bytes once printed: title and options first cut to their own
    /// limits (whole characters, ending in `…`), then the body takes what is left. Deterministic.
    public func fitted(toBytes budget: Int = maximumSealedBytes) -> AlertWords {
        var fitted = self
        fitted.title = CardTitle.fitted(title, toEncodedBytes: Self.maximumTitleBytes)
        var optionBytes = 0
        fitted.options = []
        for option in options {
            let cut = CardTitle.fitted(option, toEncodedBytes: Self.maximumOptionBytes)
            optionBytes += CardTitle.encodedBytes(cut) + 3
            guard optionBytes <= Self.maximumOptionsBytes else { break }
            fitted.options.append(cut)
        }
        var empty = fitted
        empty.body = ""
        let room = budget - empty.sealedBytes.count
        fitted.body = CardTitle.fitted(body, toEncodedBytes: max(0, room))
        return fitted
    }

    /// The words in sealed plaintext; nil when it is not such an object (a damaged or foreign box).
    public init?(sealedBytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes: sealedBytes), let object = value.objectValue,
            let title = object["title"]?.stringValue, let body = object["body"]?.stringValue
        else { return nil }
        let options = object["options"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.init(title: title, body: body, options: options)
    }
}
