import APNs
import ControlPlane
import FleetCore
import Foundation

/// A watcher with a fleet and a clock that only moves when the test says so.
struct WatcherHarness {
    var watcher: Watcher
    var fleet = FleetSnapshot()
    var now: UnixTime = 1_000

    /// Channels made so far by ``answerChannels(_:)``.
    var channelsMade = 0
    /// Every event runs as a driver's step does: on a copy staging its writes, kept and folded in after.
    var stagesSteps = false

    init(guards: GuardSet = .all, policy: CardPolicy = CardPolicy(), loaded: Bool = true) {
        watcher = Watcher(guards: guards, policy: policy)
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

    /// Hands `event` to the watcher, as a staged step when ``stagesSteps`` is set.
    @discardableResult
    mutating func handle(_ event: WatcherEvent) -> [WatcherEffect] {
        guard stagesSteps else { return watcher.handle(event) }
        var next = watcher
        next.beginStagedStep()
        let effects = next.handle(event)
        watcher = consume next
        watcher.commitStagedStep()
        return effects
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
        return handle(.ticked(fleet, at: now))
    }

    @discardableResult
    mutating func register(
        _ kind: TokenKind, _ hex: String, env: PushEnvironment = .sandbox, device: DeviceID = .legacy
    ) -> [WatcherEffect] {
        handle(.tokenRegistered(device, kind, env, hex: hex, at: now))
    }

    @discardableResult
    mutating func ended(device: DeviceID = .legacy) -> [WatcherEffect] {
        handle(.endedReported(device, at: now))
    }

    /// Answers `batch`, each token with the status `statuses` gives it (200 when absent); a broadcast
    /// with `broadcast` (200 when absent).
    @discardableResult
    mutating func answer(
        _ batch: PushBatch, _ statuses: [String: (Int, String?)] = [:], broadcast: ChannelAnswer = ChannelAnswer(status: 200)
    ) -> [WatcherEffect] {
        let results = batch.targets.map { target in
            let (status, reason) = statuses[target.hex] ?? (200, nil)
            return TokenResult(target: target, status: status, reason: reason, apnsId: nil, milliseconds: 1)
        }
        let receipt = PushReceipt(
            batchId: batch.id, deviceId: batch.deviceId, results: results, broadcast: batch.isBroadcast ? broadcast : nil)
        return handle(.pushAnswered(receipt, at: now))
    }

    /// The device reports itself; by default a sandbox iOS 18 phone that asks for channel cards.
    @discardableResult
    mutating func report(
        _ profile: DeviceProfile = DeviceProfile(env: .sandbox, liveActivityChannels: true), device: DeviceID = .legacy
    ) -> [WatcherEffect] {
        handle(.deviceReported(device, profile, at: now))
    }

    /// Answers every channel request in `effects` as APNs would: a create makes `channel-N` (or answers
    /// `create` when given), a delete answers 204. Returns the effects of the answers.
    @discardableResult
    mutating func answerChannels(_ effects: [WatcherEffect], create: ChannelAnswer? = nil) -> [WatcherEffect] {
        var out: [WatcherEffect] = []
        for request in effects.channelRequests {
            switch request {
            case .create(let device, let env, _):
                let answer: ChannelAnswer
                if let create {
                    answer = create
                } else {
                    channelsMade += 1
                    answer = ChannelAnswer(status: 201, channelId: channelID(channelsMade))
                }
                out += handle(.channelCreationAnswered(device, env, answer, at: now))
            case .delete(let channel):
                out += handle(.channelDeletionAnswered(channel, ChannelAnswer(status: 204), at: now))
            }
        }
        return out
    }

    /// A channel device with a live channel card on `channel-1` showing one working session `s1`
    /// (push-to-start token `a`), and with guard `channel-rotation` its spare `channel-2`.
    static func withChannelCard(guards: GuardSet = .all, policy: CardPolicy = CardPolicy()) -> WatcherHarness {
        var harness = WatcherHarness(guards: guards, policy: policy)
        harness.report()
        harness.register(.pushToStart, hex("a"))
        harness.answerChannels(harness.tick())
        harness.work("s1")
        harness.tickAndDeliver()
        // With channel rotation, a spare channel (`channel-2`) is made for the next card.
        harness.answerChannels(harness.tick())
        return harness
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

/// The id APNs would give the `n`th channel (base64, as APNs' ids are).
func channelID(_ n: Int) -> BroadcastChannelID {
    try! BroadcastChannelID(Data("channel-\(n)".utf8).base64EncodedString())
}

/// A hex token made of one repeated character, 64 long.
func hex(_ character: Character) -> String { String(repeating: character, count: 64) }

extension [WatcherEffect] {
    /// The effects other than persisting `since` baselines.
    var withoutSince: [WatcherEffect] {
        filter { if case .saveSince = $0 { return false } else { return true } }
    }
}
