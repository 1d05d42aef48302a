import FleetCore

/// One Live Activity push as the simulated APNs carries it.
struct SimulatedPush: Hashable {
    enum Event: String, Hashable { case start, update, end }

    var event: Event
    var content: ContentState
    /// `aps.timestamp`: the device ignores an update older than the last state it applied.
    var timestamp: UnixTime
    var token: String
    var environment: PushEnvironment
}

/// What the simulated APNs answered.
enum SimulatedAnswer: Hashable {
    /// 200. Not a delivery receipt: a dead Live Activity token and a rotted push-to-start token answer it too.
    case accepted
    /// 410 Unregistered (the app is gone) or 400 BadDeviceToken (never a token): prune it.
    case tokenDead
    /// A transient 5xx: send again later.
    case retryLater
}

/// APNs as the seed met it: latency, rare 5xx, a dead Live Activity token that answers 200 and drops the
/// payload, a rotted push-to-start token that does the same, and 410 only for an uninstalled app.
struct SimulatedAPNs {
    enum Target: Hashable {
        case pushToStart(phone: Int)
        case activity(phone: Int, card: Int)
    }

    private var targets: [String: Target] = [:]

    /// Makes `token` addressable (ActivityKit minted it on a phone).
    mutating func mint(_ token: String, for target: Target) { targets[token] = target }

    func target(of token: String) -> Target? { targets[token] }
}
