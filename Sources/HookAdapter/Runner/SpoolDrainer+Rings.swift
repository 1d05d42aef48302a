import FleetCore
import Foundation

extension SpoolDrainer {
    /// What `lfg host` does when its doorbell rings (docs/hook-fast-path.md): delivers the sessions rung,
    /// in ring order, then every other session with work pending (a ring can be lost while the host is
    /// busy, so the inbox, not the ring, is the truth), until `deadline` or a delivery fails.
    ///
    /// Each session's turn is only tried: one another process holds is delivered by that process (it looks
    /// at the inbox again after letting go), so the host never waits behind a hook.
    public static func deliverRung(
        _ rings: HostDoorbell.Listener.Rings, _ deliverer: SessionDeliverer, deadline: HookDeadline
    ) async -> Result {
        var result = await drainLegacySpool(deliverer.files, using: deliverer.delivery, deadline: deadline)
        let pending = deliverer.files.inbox.sessionKeys()
        let rung = rings.keys.filter(pending.contains)
        for key in rung + pending.filter({ !rung.contains($0) }).sorted() {
            guard !deadline.hasPassed, result.stoppedBecause == nil else { break }
            var one = await deliverer.deliver(key, deadline: deadline)
            if one.stoppedBecause == .anotherProcessDelivers { one.stoppedBecause = nil }
            result.add(one)
        }
        return result
    }
}
