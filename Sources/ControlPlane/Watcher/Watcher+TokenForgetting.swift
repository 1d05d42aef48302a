import FleetCore

/// Guard `token-forgetting` (seed 003): an update token belongs to one card and dies with it. Kept after
/// its card ends, it is the corpse the next card's updates go to, answering 200 and changing nothing (the
/// idle-phone failure). So a card's update tokens are forgotten when it ends (server `end` delivered,
/// the phone's `/ended`, iOS's 8-hour end, a renewal), and any update token never refreshed for
/// ``CardPolicy/updateTokenMaxAge`` is forgotten too.
extension Watcher {
    /// Forgets every update token of the device (its card ended); logs `token-pruned` with `reason`.
    mutating func forgetUpdateTokens(
        _ box: inout FleetBox, deviceId: DeviceID, reason: String, now: UnixTime
    ) -> [WatcherEffect] {
        let gone = box.record.tokens.of(.update)
        guard !gone.isEmpty else { return [] }
        box.record.tokens.removeAll { $0.kind == .update }
        return gone.map { Self.forgottenLine($0, deviceId: deviceId, reason: reason, now: now) }
    }

    /// Per tick: forgets update tokens older than ``CardPolicy/updateTokenMaxAge``.
    mutating func forgetAgedTokens(_ box: inout FleetBox, deviceId: DeviceID, now: UnixTime) -> [WatcherEffect] {
        guard guards.isOn(.tokenForgetting) else { return [] }
        let cutoff = now - policy.updateTokenMaxAge
        guard box.record.tokens.contains(where: { $0.kind == .update && $0.registeredAt <= cutoff }) else { return [] }
        let aged = box.record.tokens.filter { $0.kind == .update && $0.registeredAt <= cutoff }
        box.record.tokens.removeAll { $0.kind == .update && $0.registeredAt <= cutoff }
        return aged.map { Self.forgottenLine($0, deviceId: deviceId, reason: "aged", now: now) }
    }

    private static func forgottenLine(
        _ token: LiveActivityToken, deviceId: DeviceID, reason: String, now: UnixTime
    ) -> WatcherEffect {
        .log(.tokenPruned(
            at: now, deviceId: deviceId, token: token.hex, env: token.env, kind: token.kind.rawValue, status: nil,
            reason: reason))
    }
}
