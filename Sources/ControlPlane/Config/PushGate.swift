import FleetCore

/// Whether this server may push, and if not, why (reported by `GET /api/push/live-activity/state`).
public struct PushGate: Hashable, Sendable {
    /// The state of `$LFG_HOME`'s exclusive watcher lock.
    public enum LockState: Hashable, Sendable {
        /// Not tried: an earlier condition already failed, so this server must not take it from the primary.
        case notTried
        case held
        /// Another process holds it.
        case heldElsewhere
    }

    public var isLiveActivitiesOn: Bool
    public var missingCredentials: [String]
    public var listeningPort: Int
    public var pushPort: Int
    public var lock: LockState
    public var home: String

    public init(
        isLiveActivitiesOn: Bool, missingCredentials: [String], listeningPort: Int, pushPort: Int, lock: LockState,
        home: String
    ) {
        self.isLiveActivitiesOn = isLiveActivitiesOn
        self.missingCredentials = missingCredentials
        self.listeningPort = listeningPort
        self.pushPort = pushPort
        self.lock = lock
        self.home = home
    }

    /// Whether the lock is worth trying: every other condition holds.
    public func shouldTryLock(guards: GuardSet = .all) -> Bool {
        isLiveActivitiesOn && missingCredentials.isEmpty && (!guards.isOn(.pushPortGate) || listeningPort == pushPort)
    }

    /// Why pushing is off, or nil when it is on.
    ///
    /// A scratch `lfg serve` on a spare port reads the same store; if it pushed, it would fight the primary
    /// over the phone's one card with its own idea of the card (guard `push-port-gate`). The port is the
    /// convention; the exclusive lock on the home is what really keeps two servers from both pushing.
    public func reason(guards: GuardSet = .all) -> String? {
        guard isLiveActivitiesOn else { return "LFG_LIVE_ACTIVITIES is not 1: the Live Activity half is off" }
        guard missingCredentials.isEmpty else {
            return "APNs credentials are incomplete: set \(missingCredentials.joined(separator: ", "))"
        }
        guard guards.isOn(.pushPortGate) else { return nil }
        guard listeningPort == pushPort else {
            return "listening on port \(listeningPort), not the push port \(pushPort) (LFG_PUSH_PORT): this server stays silent"
        }
        switch lock {
        case .held: return nil
        case .heldElsewhere: return "another lfg serve holds the watcher lock of \(home): only one server may push"
        case .notTried: return "the watcher lock of \(home) was not taken"
        }
    }

    public func isEnabled(guards: GuardSet = .all) -> Bool { reason(guards: guards) == nil }
}
