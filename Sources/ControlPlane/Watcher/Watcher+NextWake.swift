import FleetCore

/// When the watcher next needs a tick with nothing new happening, so a driver can sleep until then
/// instead of ticking every interval (an instance serves thousands of accounts, most of them idle).
extension Watcher {
    /// The earliest time a tick on `fleet` may do anything: `now` when something is waiting to be decided
    /// (a device an event touched, a fleet change not yet reduced, a host that went down or came back),
    /// else the first timer of a device or session, a host's heartbeat running out, or a channel deletion
    /// to ask again; nil when nothing but a new event can change a decision.
    ///
    /// Rule: a tick at a time before the one returned (with no event in between) returns no effect and
    /// changes nothing (`NextWakeTests` holds it on random event streams); early times only cost a tick
    /// that finds nothing to do.
    public func nextWake(_ fleet: FleetSnapshot, now: UnixTime) -> UnixTime? {
        guard isLoaded else { return nil }
        if !dirtyDevices.isEmpty || !views.revisit.isEmpty || views.reducedSequence != fleet.sequence { return now }
        if fleet.downHosts(at: now) != views.downHosts { return now }
        var times = [deviceWakes.earliest, views.sessionWakes.earliest].compactMap { $0 }
        // A host up now reads down once its heartbeat runs out (`isDown`: strictly after).
        times += fleet.hosts.values.lazy.filter { !$0.isDown(at: now) }.map { $0.lastSeen + $0.ttlSeconds }
        for channel in retiredChannels {
            switch channelDeletions[channel.id] {
            case .inFlight: continue
            case .retry(let retryAt): times.append(max(retryAt, channel.holdUntil ?? retryAt))
            case nil: times.append(channel.holdUntil ?? now)
            }
        }
        return times.min().map { max($0, now) }
    }
}
