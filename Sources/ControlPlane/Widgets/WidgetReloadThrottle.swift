import FleetCore

/// The WidgetKit reload budget (seed 002): a device gets at most one widget push per ``interval``; a
/// change inside the window is owed one more push when the window ends, so the last change is never lost.
///
/// Pure: changes and ticks in, the devices to push now out.
public struct WidgetReloadThrottle: Hashable, Sendable {
    /// Seconds between two widget pushes to one device.
    public static let interval: Double = 15

    /// When each device last got a widget push.
    private var lastSent: [DeviceID: UnixTime] = [:]
    /// Devices that changed inside their window and are owed a trailing push.
    private var owed: Set<DeviceID> = []

    public init() {}

    /// Something the widgets show changed for `devices` at `now`; returns those to push now (the rest
    /// are owed a push when their window ends).
    public mutating func changed(_ devices: [DeviceID], at now: UnixTime) -> [DeviceID] {
        devices.filter { device in
            if isWindowOver(device, at: now) {
                lastSent[device] = now
                owed.remove(device)
                return true
            }
            owed.insert(device)
            return false
        }
    }

    /// Time passed: returns the owed devices whose window has ended (push them now).
    public mutating func due(at now: UnixTime) -> [DeviceID] {
        let ready = owed.filter { isWindowOver($0, at: now) }.sorted()
        for device in ready {
            owed.remove(device)
            lastSent[device] = now
        }
        return ready
    }

    /// When the first owed trailing push falls due (when ``due(at:)`` must next be called); nil: none owed.
    public var nextDue: UnixTime? { owed.map { (lastSent[$0] ?? -.infinity) + Self.interval }.min() }

    /// Whether `device` is owed a trailing push.
    public func isOwed(_ device: DeviceID) -> Bool { owed.contains(device) }

    private func isWindowOver(_ device: DeviceID, at now: UnixTime) -> Bool {
        lastSent[device].map { now - $0 >= Self.interval } ?? true
    }
}
