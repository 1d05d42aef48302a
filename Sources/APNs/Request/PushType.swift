/// The `apns-push-type` header: what kind of push this is; it decides the topic suffix.
public enum PushType: String, Hashable, Sendable, CaseIterable, Codable {
    /// A user-visible alert, sound or badge. Topic: the bundle id.
    case alert
    /// A silent `content-available` push. Topic: the bundle id; priority must be 5.
    case background
    /// An ActivityKit start, update or end. Topic: `<bundle>.push-type.liveactivity`.
    case liveActivity = "liveactivity"
    /// A WidgetKit reload (iOS 26+). Topic: `<bundle>.push-type.widgets`.
    case widgets

    /// The `apns-topic` for this push type and the app's bundle id.
    ///
    /// Live Activity and widget tokens are bound to the suffixed topic; sending them under the
    /// bare bundle id is answered `400 DeviceTokenNotForTopic`.
    public func topic(bundleID: BundleID) -> String {
        switch self {
        case .alert, .background: bundleID.rawValue
        case .liveActivity: bundleID.rawValue + ".push-type.liveactivity"
        case .widgets: bundleID.rawValue + ".push-type.widgets"
        }
    }
}

/// The app's bundle id (`LFG_APNS_BUNDLE_ID`), the base of every topic.
public struct BundleID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// The `apns-priority` header.
public enum PushPriority: Int, Hashable, Sendable, CaseIterable, Codable {
    /// Deliver now; Live Activity pushes at 10 count against the hourly ActivityKit budget.
    case immediate = 10
    /// Deliver as the device's power allows; the only priority a background push may use.
    case powerConsidered = 5
    /// Never wake the device.
    case powerFirst = 1
}

/// The `apns-expiration` header.
public enum PushExpiration: Hashable, Sendable {
    /// `0`: one delivery attempt, nothing stored.
    case immediately
    /// Store and retry delivery until this Unix time (whole seconds, UTC).
    case at(UnixSeconds)

    /// The header value.
    public var headerValue: String {
        switch self {
        case .immediately: "0"
        case .at(let time): String(time)
        }
    }
}

/// Whole Unix seconds, as the `aps` date keys and `apns-expiration` carry them.
public typealias UnixSeconds = Int64
