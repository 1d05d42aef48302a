import ControlPlane
import FleetCore

/// A watcher with a fleet and a clock that only moves when the test says so.
struct WatcherHarness {
    var watcher: Watcher
    var fleet = FleetSnapshot()
    var now: UnixTime = 1_000

    init(guards: GuardSet = .all, loaded: Bool = true) {
        watcher = Watcher(guards: guards)
        if loaded { _ = watcher.handle(.loaded(devices: [:], since: [:], at: now)) }
    }

    /// A harness whose legacy device has a live card (update token `c`) showing one working session `s1`.
    static func withLiveCard(guards: GuardSet = .all) -> WatcherHarness {
        var harness = WatcherHarness(guards: guards)
        harness.register(.update, hex("c"))
        harness.work("s1")
        harness.tickAndDeliver()
        return harness
    }

    mutating func work(_ sid: SessionID, title: String = "t", host: HostID = .local, cwd: String = "") {
        fleet.put(sid, SessionReport(title: title, host: host, cwd: cwd, busy: true))
    }

    mutating func ask(_ sid: SessionID) {
        fleet.put(sid, SessionReport(title: "t", prompt: Prompt(kind: .question, text: "?")))
    }

    mutating func finish(_ sid: SessionID) { fleet.remove(sid) }

    /// How far a tick moves the clock unless told: one coalescing interval of the priority budget, so
    /// every routine change a test makes goes out at the next tick (the budget's own tests step finer).
    static let step = PushBudget().routineInterval

    @discardableResult
    mutating func tick(advancing seconds: Double = WatcherHarness.step) -> [WatcherEffect] {
        now += seconds
        return watcher.handle(.ticked(fleet, at: now))
    }

    @discardableResult
    mutating func register(
        _ kind: TokenKind, _ hex: String, env: PushEnvironment = .sandbox, device: DeviceID = .legacy
    ) -> [WatcherEffect] {
        watcher.handle(.tokenRegistered(device, kind, env, hex: hex, at: now))
    }

    @discardableResult
    mutating func ended(device: DeviceID = .legacy) -> [WatcherEffect] {
        watcher.handle(.endedReported(device, at: now))
    }

    /// Answers `batch`, each token with the status `statuses` gives it (200 when absent).
    @discardableResult
    mutating func answer(_ batch: PushBatch, _ statuses: [String: (Int, String?)] = [:]) -> [WatcherEffect] {
        let results = batch.targets.map { target in
            let (status, reason) = statuses[target.hex] ?? (200, nil)
            return TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: 1)
        }
        return watcher.handle(.pushAnswered(PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: results), at: now))
    }

    /// Ticks and answers every batch with 200; returns the tick's effects.
    @discardableResult
    mutating func tickAndDeliver(advancing seconds: Double = WatcherHarness.step) -> [WatcherEffect] {
        let effects = tick(advancing: seconds)
        for batch in effects.batches { answer(batch) }
        return effects
    }

    func card(_ device: DeviceID = .legacy) -> FleetCard? { watcher.boxes[device]?.record.card }
    func record(_ device: DeviceID = .legacy) -> DeviceRecord? { watcher.boxes[device]?.record }
}

/// A hex token made of one repeated character, 64 long.
func hex(_ character: Character) -> String { String(repeating: character, count: 64) }

extension [WatcherEffect] {
    /// The effects other than persisting `since` baselines.
    var withoutSince: [WatcherEffect] {
        filter { if case .saveSince = $0 { return false } else { return true } }
    }
}
