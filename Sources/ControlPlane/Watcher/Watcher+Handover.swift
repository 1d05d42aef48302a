import FleetCore

/// Several instances on one database (contract 8.4): devices come and go as their leases do.
extension Watcher {
    /// Whether `deviceId` has nothing in flight (no push or channel request awaiting APNs), so another
    /// instance may take it over without the answer landing on a watcher that no longer drives it.
    public func isSettled(_ deviceId: DeviceID) -> Bool {
        guard let box = boxes[deviceId] else { return true }
        return box.pending == nil && !box.isChannelRequested
    }

    /// Stops driving `ids` (their leases are given up or lost): their boxes leave, and so do the channels
    /// they retired (the next owner loads and deletes those; kept here, this instance would delete them
    /// too and write its copy over the owner's rows); nothing is written: the store keeps what they last
    /// committed for the next owner to load.
    public mutating func releaseDevices(_ ids: Set<DeviceID>) {
        for deviceId in ids {
            boxes[deviceId] = nil
            views.index(deviceId, reading: nil, guards: guards)
            deviceWakes.schedule(deviceId, at: nil)
        }
        dirtyDevices.subtract(ids)
        devicesWithAppTokens.subtract(ids)
        sortedDevices.removeAll { ids.contains($0) }
        for channel in retiredChannels where ids.contains(channel.deviceId) { channelDeletions[channel.id] = nil }
        retiredChannels.removeAll { ids.contains($0.deviceId) }
    }
}
