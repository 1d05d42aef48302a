import FleetCore

/// The server's token store as the stand-in watcher keeps it: push-to-start and update tokens per device and env.
///
/// A class because a scratch server on a spare port reads the very same store as the primary
/// (the failure `push-port-gate` exists for).
final class TokenRegistry {
    struct Entry: Hashable {
        var device: DeviceID
        var environment: PushEnvironment
        var token: String
    }

    /// The seed's cap: newest 3 push-to-start tokens per device and env.
    static let pushToStartCap = 3

    /// Newest first.
    private(set) var pushToStart: [Entry] = []
    /// Newest first.
    private(set) var update: [Entry] = []

    /// Upserts a push-to-start token; with `cap` keeps only the newest 3 of that device and env.
    func registerStart(_ entry: Entry, cap: Bool) {
        pushToStart.removeAll { $0.token == entry.token }
        pushToStart.insert(entry, at: 0)
        guard cap else { return }
        var kept = 0
        pushToStart.removeAll { other in
            guard other.device == entry.device, other.environment == entry.environment else { return false }
            kept += 1
            return kept > Self.pushToStartCap
        }
    }

    /// Registers a card's update token; with `supersede` it replaces that device and env's previous one.
    func registerUpdate(_ entry: Entry, supersede: Bool) {
        update.removeAll { $0.token == entry.token || (supersede && $0.device == entry.device && $0.environment == entry.environment) }
        update.insert(entry, at: 0)
    }

    /// Forgets a token APNs called dead (410, BadDeviceToken).
    func prune(_ token: String) {
        pushToStart.removeAll { $0.token == token }
        update.removeAll { $0.token == token }
    }

    func startTokens(of device: DeviceID) -> [Entry] { pushToStart.filter { $0.device == device } }
    func updateTokens(of device: DeviceID) -> [Entry] { update.filter { $0.device == device } }
    func holdsUpdateToken(_ token: String) -> Bool { update.contains { $0.token == token } }

    /// Every device with any token, sorted (never hash order: the run must be reproducible).
    var devices: [DeviceID] { Array(Set(pushToStart.map(\.device) + update.map(\.device))).sorted() }
}
