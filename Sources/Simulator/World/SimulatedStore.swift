import ControlPlane
import FleetCore

/// The store of one `$LFG_HOME` (the SQLite file in production): what the watcher persisted.
///
/// A class because a scratch server started on the same home reads the very same store.
final class SimulatedStore {
    var devices: [DeviceID: DeviceRecord] = [:]
    var since: SinceMap = [:]

    /// Carries out the watcher's persistence effects.
    func apply(_ effect: WatcherEffect) {
        switch effect {
        case .saveDevice(let deviceId, let record): devices[deviceId] = record
        case .saveSince(let changed, let removed):
            since.merge(changed) { _, new in new }
            for sid in removed { since[sid] = nil }
        case .forgetDevice(let deviceId): devices[deviceId] = nil
        case .send, .log, .recordHistory, .requestChannel, .saveRetiredChannels: break
        }
    }
}
