import FleetCore

/// Whether the app said it is in the foreground or left it (`PUT /api/devices/{deviceId}`, `appState`).
public enum DeviceAppState: String, Hashable, Sendable, Codable {
    case foreground, background
}

/// How long a due `start` waits for a foreground app to register the card it is making itself.
///
/// The prompt tick runs ~10 ms after a change, long before an open app (which requests its own card
/// and then registers that card's update token) can reach the server; without the hold every app-made
/// card would get a push-started twin that the app's dedupe then ends. The hold lets adoption win.
/// Phones that are idle, or never report `appState`, are never held. Part of guard `adopt-on-register`.
public struct StartHold: Hashable, Sendable {
    /// A foreground report older than this no longer counts, in case its `background` report was lost.
    /// Generous on purpose: the app reports foreground once per foregrounding, not periodically, and a
    /// person keeps it open for many minutes while sessions start; a stale report costs a 3 s late start.
    public var foregroundFreshness: Double
    /// How long a due start is held at most.
    public var grace: Double

    public init(foregroundFreshness: Double = 3600, grace: Double = 3) {
        self.foregroundFreshness = foregroundFreshness
        self.grace = grace
    }

    /// Whether a start due `now` for `box` must wait.
    func holds(_ box: FleetBox, now: UnixTime) -> Bool {
        guard let foregroundAt = box.foregroundReportedAt, now - foregroundAt < foregroundFreshness else { return false }
        guard let heldSince = box.startHeldSince else { return true }
        return now - heldSince < grace
    }
}

extension Watcher {
    /// The app's foreground state: a foreground report arms the start hold, a background one disarms it.
    mutating func reportAppState(_ deviceId: DeviceID, _ appState: DeviceAppState, now: UnixTime) -> [WatcherEffect] {
        var box = box(deviceId)
        switch appState {
        case .foreground: box.foregroundReportedAt = now
        case .background:
            box.foregroundReportedAt = nil
            box.startHeldSince = nil
        }
        boxes[deviceId] = box
        return []
    }

    /// Holds a due start while the device's app is in the foreground (guard `adopt-on-register`);
    /// returns the effects of holding (the `start-held` line, once per hold), or nil to start now.
    func holdStart(_ box: inout FleetBox, deviceId: DeviceID, view: FleetView, now: UnixTime) -> [WatcherEffect]? {
        guard guards.isOn(.adoptOnRegister), startHold.holds(box, now: now) else { return nil }
        guard box.startHeldSince == nil else { return [] }
        box.startHeldSince = now
        return [.log(.startHeld(at: now, deviceId: deviceId, graceSeconds: startHold.grace, active: view.activeTotal))]
    }
}
