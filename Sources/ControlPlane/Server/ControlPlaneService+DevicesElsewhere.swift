import FleetCore

/// Listing the account's devices that other instances drive (several instances on one database): a client
/// may reach any instance and must see the account's whole picture, while each instance holds in memory
/// only the devices it drives.
extension ControlPlaneService {
    /// The most devices one listing reads from the store (one statement per 1,000); the rest are counted,
    /// not listed, so a request costs a bounded read whatever the account's size.
    public static let devicesReadElsewhereLimit = 10_000

    /// The devices other instances drive, for a listing of the whole account (the state, the tokens): as
    /// ``devicesElsewhere(among:)`` reads them, or none and why (the listing says so, and stderr). Alone:
    /// none and no error.
    func devicesElsewhereListed() async -> (devices: StoredDevices, error: String?) {
        guard dependencies.coordinator != nil else { return (StoredDevices(), nil) }
        do { return (try await devicesElsewhere(), nil) } catch {
            dependencies.reportProblem("listing the devices other instances drive failed: \(error)")
            return (StoredDevices(), "\(error)")
        }
    }

    /// The stored records of this account's devices that this instance does not drive (`among` them
    /// only, when given), each with the instance that does. Devices this instance stopped driving while
    /// the store was read (a lease lost or shed meanwhile) are read once more, so none goes missing.
    func devicesElsewhere(among wanted: Set<DeviceID>? = nil) async throws(StoreError) -> StoredDevices {
        guard let coordinator = dependencies.coordinator else { return StoredDevices() }
        let drivenBefore = Set(watcher.deviceIds)
        let limit = Self.devicesReadElsewhereLimit
        let selection: DeviceSelection = wanted.map { .among($0.subtracting(drivenBefore)) } ?? .allBut(drivenBefore)
        var stored = try await coordinator.shared.readDevices(account: coordinator.account, selection, limit: limit)
        let leftMeanwhile = drivenBefore.subtracting(watcher.deviceIds).filter { wanted?.contains($0) ?? true }
        if !leftMeanwhile.isEmpty {
            let more = try await coordinator.shared.readDevices(
                account: coordinator.account, .among(leftMeanwhile), limit: max(0, limit - stored.records.count))
            stored.records.merge(more.records) { _, new in new }
            stored.drivers.merge(more.drivers) { _, new in new }
            stored.notRead += more.notRead
        }
        return stored
    }
}
