import ControlPlane
import FleetCore
import Foundation

/// The watcher-cost half of `lfg bench serve`: a synthetic fleet of devices and sessions, ticked in memory.
struct BenchServeFleet {
    let devices: Int
    let sessions: Int

    struct Figures: Encodable {
        var devices: Int
        var sessions: Int
        /// The first tick: reduce everything, decide an update for every device.
        var coldTickMilliseconds: Double
        /// A tick over an unchanged fleet (mean of `quietTicks`).
        var unchangedTickMilliseconds: Double
        /// Share of one core an unchanged fleet costs at the default 2 s tick.
        var unchangedCoreShareAt2s: Double
        /// A tick after one session changed in a way every card shows: an update for every device.
        var changedTickMilliseconds: Double
        var updatesDecidedOnChange: Int
        /// A tick after a change only the few probe devices see (the others hide its folder).
        var probeChangedTickMilliseconds: Double
        var updatesDecidedOnProbeChange: Int
        /// A tick after a change no card shows (the title of a session below the shown rows).
        var unshownChangeTickMilliseconds: Double
    }

    /// Devices that see only the probe folder (every other device hides it), as bench/instances.py's probes.
    static let probeDevices = 20
    static let probeFolder = "/probe"

    static let quietTicks = 20

    /// Builds the fleet, brings every device to a delivered card, then measures.
    func measure() -> Figures {
        var watcher = Watcher()
        watcher.handle(.loaded(devices: [:], since: [:], at: 0))
        var fleet = FleetSnapshot()
        for index in 0..<sessions { fleet.put(Self.sid(index), Self.report(index, step: 0)) }
        let probe = SessionID("probe-session")
        fleet.put(probe, SessionReport(title: "Probe", cwd: Self.probeFolder + "/a", busy: true))
        var now: UnixTime = 1_000
        for index in 0..<devices {
            let device = DeviceID("device-\(index)")
            // A few devices hide a folder more: a handful of distinct views, each kept up to date per change.
            let hidden = index % 100 == 0 ? [Self.probeFolder, "/work/p\(index % 5)"] : [Self.probeFolder]
            watcher.handle(.deviceReported(device, DeviceProfile(env: .sandbox, hiddenDirs: HiddenDirs(hidden)), at: now))
            watcher.handle(.tokenRegistered(device, .update, .sandbox, hex: Self.hex(index), at: now))
        }
        for index in 0..<Self.probeDevices {
            let device = DeviceID("probe-\(index)")
            watcher.handle(.deviceReported(device, DeviceProfile(env: .sandbox, hiddenDirs: ["/work"]), at: now))
            watcher.handle(.tokenRegistered(device, .update, .sandbox, hex: Self.hex(devices + index), at: now))
        }
        let clock = ContinuousClock()
        now += 2
        var effects: [WatcherEffect] = []
        let cold = clock.measure { effects = watcher.handle(.ticked(fleet, at: now)) }
        Self.deliver(effects.batches, to: &watcher, at: now)

        var quiet = Duration.zero
        for _ in 0..<Self.quietTicks {
            now += 2
            quiet += clock.measure { effects = watcher.handle(.ticked(fleet, at: now)) }
            precondition(effects.batches.isEmpty, "an unchanged fleet must not push")
        }
        fleet.put(probe, SessionReport(title: "Probe", cwd: Self.probeFolder + "/a", prompt: Prompt(kind: .question, text: "?")))
        now += 6
        let probeChanged = clock.measure { effects = watcher.handle(.ticked(fleet, at: now)) }
        let probeUpdates = effects.batches.count
        Self.deliver(effects.batches, to: &watcher, at: now)
        // The last session has been working since the first tick: far below the three rows every card shows.
        var renamed = Self.report(sessions - 1, step: 0)
        renamed.title = "Renamed"
        fleet.put(Self.sid(sessions - 1), renamed)
        now += 6
        let unshownChanged = clock.measure { effects = watcher.handle(.ticked(fleet, at: now)) }
        precondition(effects.batches.isEmpty, "a change no card shows must not push")
        fleet.put(Self.sid(1), Self.report(1, step: 1))
        now += 6
        let changed = clock.measure { effects = watcher.handle(.ticked(fleet, at: now)) }
        let unchanged = Self.milliseconds(quiet) / Double(Self.quietTicks)
        return Figures(
            devices: devices, sessions: sessions, coldTickMilliseconds: Self.milliseconds(cold),
            unchangedTickMilliseconds: unchanged, unchangedCoreShareAt2s: unchanged / 2_000,
            changedTickMilliseconds: Self.milliseconds(changed), updatesDecidedOnChange: effects.batches.count,
            probeChangedTickMilliseconds: Self.milliseconds(probeChanged), updatesDecidedOnProbeChange: probeUpdates,
            unshownChangeTickMilliseconds: Self.milliseconds(unshownChanged))
    }

    static func deliver(_ batches: [PushBatch], to watcher: inout Watcher, at now: UnixTime) {
        for batch in batches {
            let results = batch.targets.map { TokenResult(target: $0, status: 200) }
            watcher.handle(.pushAnswered(PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: results), at: now))
        }
    }

    static func sid(_ index: Int) -> SessionID { SessionID("session-\(index)") }

    /// A mix: a third idle, a tenth waiting on a question, the rest working, spread over 20 hosts and 100 folders.
    /// At step 1 the session asks a question, which changes every card's counts.
    static func report(_ index: Int, step: Int) -> SessionReport {
        SessionReport(
            title: "Session \(index)", host: HostID("host-\(index % 20)"), cwd: "/work/p\(index % 100)",
            busy: index % 3 != 0, prompt: index % 10 == 0 || step > 0 ? Prompt(kind: .question, text: "?") : nil)
    }

    static func hex(_ index: Int) -> String { String(format: "%064x", index + 1) }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
