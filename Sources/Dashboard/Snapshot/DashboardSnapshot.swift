import ControlPlane
import FleetCore

/// Everything the dashboard page draws, computed on the server so the card surfaces and elapsed
/// labels come from FleetCore's one set of rules (`SurfaceLayout`, `ElapsedLabel`); the page only paints.
public struct DashboardSnapshot: Encodable, Sendable, Equatable {
    /// When it was computed, Unix seconds.
    public var generatedAt: UnixTime
    public var watcher: WatcherStatus
    public var devices: [DeviceCard]
    public var sessions: [SessionLine]
    public var tokens: [TokenLine]
    /// Pending questions, oldest first: the dashboard can answer them.
    public var questions: [QuestionLine]
    /// Seconds until the next elapsed label changes: when the page should ask again (1 to 60).
    public var refreshAfterSeconds: Double

    /// Whether the watcher pushes, and why not.
    public struct WatcherStatus: Encodable, Sendable, Equatable {
        public var enabled: Bool
        public var reason: String?
        /// Decision-log lines lost to failed writes (0 is healthy).
        public var decisionLogUnwrittenLines: Int
    }

    /// One device: its card as the server last sent it, drawn on every surface.
    public struct DeviceCard: Encodable, Sendable, Equatable {
        public var deviceId: String
        public var env: String?
        public var card: Card?
        public var veto: [String]?
        public var tokenCounts: TokenCounts
        /// Why the phone may not show `card` (empty when nothing says so); the panel draws the card anyway.
        public var uncertainty: [Warning]
        /// Whether privacy mode and sealing are on (contract 8.3).
        public var privacy: PrivacyStatus
    }

    /// What Apple can read of a device's pushes, in one tag.
    public struct PrivacyStatus: Encodable, Sendable, Equatable {
        public var isOn: Bool
        /// The id of the key alerts are sealed to, first 8 characters; nil when none is registered.
        public var sealKey: String?
        /// "privacy on · alerts sealed (key 3f9a0c5e…)", "privacy on · alerts say only that a session needs you",
        /// "privacy off", or "privacy off · alerts sealed (key …)".
        public var text: String

        public init(isOn: Bool, sealKeyId: String?) {
            self.isOn = isOn
            sealKey = sealKeyId.map { String($0.prefix(8)) }
            let alerts = sealKey.map { "alerts sealed (key \($0)…)" }
                ?? (isOn ? "alerts say only that a session needs you" : nil)
            text = ([isOn ? "privacy on" : "privacy off"] + (alerts.map { [$0] } ?? [])).joined(separator: " · ")
        }
    }

    /// One reason the drawn card may not be the phone's.
    public struct Warning: Encodable, Sendable, Equatable {
        public var kind: CardUncertainty
        public var text: String
    }

    public struct TokenCounts: Encodable, Sendable, Equatable {
        public var pushToStart: Int
        public var update: Int
    }

    /// The card the server believes the phone shows.
    public struct Card: Encodable, Sendable, Equatable {
        /// `pushToStart` or `adopted`.
        public var origin: String
        public var startedAt: UnixTime
        public var startedLabel: String
        /// Nil right after an adoption, until the first push carries content.
        public var content: Content?
    }

    /// The content state's figures and its four surface layouts.
    public struct Content: Encodable, Sendable, Equatable {
        public var working: Int
        public var needsInput: Int
        public var more: Int
        public var activeTotal: Int
        public var accent: String
        public var updatedAt: UnixTime
        /// `sid:state` for every row of the content state, in card order.
        public var rows: [String]
        public var surfaces: [SurfaceView]
    }

    /// One session as the list shows it.
    public struct SessionLine: Encodable, Sendable, Equatable {
        public var sid: String
        public var title: String
        public var host: String
        /// The session's host is known down (its state reads `unknown`).
        public var isHostDown: Bool
        public var displayState: String
        public var cwd: String
        public var step: String?
        public var promptKind: String?
    }

    /// One registered token: never more than its first 8 hex characters.
    public struct TokenLine: Encodable, Sendable, Equatable {
        public var deviceId: String
        public var kind: String
        public var env: String
        public var token: String
        public var registeredAt: UnixTime
        public var ageLabel: String
    }
}
