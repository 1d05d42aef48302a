import FleetCore

/// The registration rules for one device's tokens: supersede, cap, prune.
///
/// Kept newest first. Every rule honours its guard, so the simulator can show the failure it prevents.
extension [LiveActivityToken] {
    /// At most this many push-to-start tokens per device and env (guard `push-to-start-cap`).
    public static var pushToStartCap: Int { 3 }

    /// Registers `token`, applying supersede and the push-to-start cap.
    ///
    /// - A push-to-start token is upserted newest first; only the newest 3 per env are kept. The live
    ///   store once reached nineteen, and every start blasted all of them (guard `push-to-start-cap`).
    /// - An update token replaces that env's previous one: a device has one card, so the old token is a
    ///   corpse, and a dead Live Activity token answers 200 forever, so its 200 would count as a delivery
    ///   (guard `supersede`).
    public mutating func register(_ token: LiveActivityToken, guards: GuardSet) {
        removeAll { $0.kind == token.kind && $0.hex == token.hex }
        switch token.kind {
        case .pushToStart:
            insert(token, at: startIndex)
            if guards.isOn(.pushToStartCap) {
                var keptPerEnv: [PushEnvironment: Int] = [:]
                self = filter { candidate in
                    guard candidate.kind == .pushToStart else { return true }
                    keptPerEnv[candidate.env, default: 0] += 1
                    return keptPerEnv[candidate.env, default: 0] <= Self.pushToStartCap
                }
            }
        case .update:
            if guards.isOn(.supersede) {
                removeAll { $0.kind == .update && $0.env == token.env }
            }
            insert(token, at: startIndex)
        }
    }

    /// Removes a token APNs reported dead (410, or 400 `BadDeviceToken`); returns whether it was present.
    @discardableResult
    public mutating func prune(_ target: PushTarget) -> Bool {
        let before = count
        removeAll { $0.kind == target.kind && $0.hex == target.hex }
        return count != before
    }

    /// The tokens of `kind`, newest first.
    public func of(_ kind: TokenKind) -> [LiveActivityToken] { filter { $0.kind == kind } }
}
