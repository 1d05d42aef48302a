/// The body of a user-visible alert push (`apns-push-type: alert`).
public struct AlertPayload: Hashable, Sendable, Encodable {
    public var title: String
    public var subtitle: String?
    public var body: String
    /// A sound file name or `"default"`.
    public var sound: String?
    public var badge: Int?
    public var threadID: String?
    public var category: String?
    /// `passive`, `active`, `time-sensitive` or `critical`.
    public var interruptionLevel: String?
    /// 0 ... 1, for ordering in the notification summary.
    public var relevanceScore: Double?
    /// App-defined keys beside `aps` (primitive string values only).
    public var custom: [String: String]

    public init(
        title: String, subtitle: String? = nil, body: String, sound: String? = "default", badge: Int? = nil,
        threadID: String? = nil, category: String? = nil, interruptionLevel: String? = nil,
        relevanceScore: Double? = nil, custom: [String: String] = [:]
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.sound = sound
        self.badge = badge
        self.threadID = threadID
        self.category = category
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.custom = custom
    }

    struct Alert: Encodable { let title: String, subtitle: String?, body: String }

    enum APSKeys: String, CodingKey {
        case alert, sound, badge, category
        case threadID = "thread-id"
        case interruptionLevel = "interruption-level"
        case relevanceScore = "relevance-score"
    }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: DynamicKey.self)
        var aps = root.nestedContainer(keyedBy: APSKeys.self, forKey: DynamicKey("aps"))
        try aps.encode(Alert(title: title, subtitle: subtitle, body: body), forKey: .alert)
        try aps.encodeIfPresent(sound, forKey: .sound)
        try aps.encodeIfPresent(badge, forKey: .badge)
        try aps.encodeIfPresent(threadID, forKey: .threadID)
        try aps.encodeIfPresent(category, forKey: .category)
        try aps.encodeIfPresent(interruptionLevel, forKey: .interruptionLevel)
        try aps.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
        try DynamicKey.encode(custom, into: &root)
    }
}

/// The body of a silent push (`apns-push-type: background`): `content-available` only.
public struct BackgroundPayload: Hashable, Sendable, Encodable {
    /// App-defined keys beside `aps` (primitive string values only).
    public var custom: [String: String]

    public init(custom: [String: String] = [:]) { self.custom = custom }

    enum APSKeys: String, CodingKey { case contentAvailable = "content-available" }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: DynamicKey.self)
        var aps = root.nestedContainer(keyedBy: APSKeys.self, forKey: DynamicKey("aps"))
        try aps.encode(1, forKey: .contentAvailable)
        try DynamicKey.encode(custom, into: &root)
    }
}

/// The body of a WidgetKit reload push (`apns-push-type: widgets`): `{"aps":{"content-changed":true}}`.
public struct WidgetReloadPayload: Hashable, Sendable, Encodable {
    public init() {}

    enum APSKeys: String, CodingKey { case contentChanged = "content-changed" }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: APSKey.self)
        var aps = root.nestedContainer(keyedBy: APSKeys.self, forKey: .aps)
        try aps.encode(true, forKey: .contentChanged)
    }
}

/// A coding key made at run time, for app-defined keys beside `aps`.
struct DynamicKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// Encodes `custom` beside `aps`; a custom `aps` key is skipped rather than clobbering the system keys.
    static func encode(_ custom: [String: String], into container: inout KeyedEncodingContainer<DynamicKey>) throws {
        for (key, value) in custom.sorted(by: { $0.key < $1.key }) where key != "aps" {
            try container.encode(value, forKey: DynamicKey(key))
        }
    }
}
