import APNs
import ControlPlane
import FleetCore
import FleetCoreTesting
import Foundation
import Testing

/// The watcher decides only for devices whose inputs changed or whose timers are due. Against the full
/// walk (every device, every tick: ``Watcher/decidesEveryDevice``) on the same random event streams, it must
/// send, log and write exactly the same, step for step: any timer it forgot would show as a missing effect.
@Suite("The watcher decides only where something changed")
struct DecisionScopeTests {
    @Test("Same effects as deciding for every device on every tick", arguments: 1...12)
    func sameEffectsAsTheFullWalk(seed: UInt64) {
        var world = RandomWorld(seed: seed)
        var scoped = Watcher(policy: world.policy)
        var full = Watcher(policy: world.policy)
        full.decidesEveryDevice = true
        var step = 0
        var events: [WatcherEvent] = [.loaded(devices: [:], since: [:], at: world.now)]
        while step < 300 {
            for event in events {
                let expected = full.handle(event)
                let effects = scoped.handle(event)
                #expect(effects == expected, "seed \(seed) step \(step)")
                guard effects == expected else { return }
                world.absorb(effects)
            }
            events = world.nextEvents()
            step += 1
        }
        #expect(scoped.boxes == full.boxes)
        #expect(scoped.since == full.since)
    }

    @Test("An unchanged fleet decides for no device; a change in one view decides only that view's devices")
    func unchangedFleetDecidesNothing() {
        var harness = WatcherHarness()
        for index in 0..<4 {
            let device = DeviceID("d\(index)")
            harness.report(DeviceProfile(env: .sandbox, hiddenDirs: index < 2 ? ["/hidden"] : []), device: device)
            harness.register(.update, String(repeating: "\(index + 1)", count: 64), device: device)
        }
        harness.work("s1", cwd: "/shown")
        harness.tickAndDeliver()
        harness.tickAndDeliver()
        #expect(harness.tick().isEmpty)
        // A session only the devices without hidden folders see: only d2 and d3 get an update.
        harness.work("s2", cwd: "/hidden")
        let updated = harness.tick().batches.map(\.deviceId)
        #expect(updated == ["d2", "d3"])
    }
}

/// A small random world around one watcher: phones that register tokens, report profiles, foreground and
/// end cards; sessions that start, wait, go quiet and stop on hosts that go down; APNs that accepts, refuses
/// and forgets; and a clock that moves by milliseconds or by hours.
struct RandomWorld {
    var random: SeededRandom
    var now: UnixTime = 10_000
    var fleet = FleetSnapshot()
    var outstanding: [WatcherEvent] = []
    var channelsMade = 0
    let devices: [DeviceID] = (0..<6).map { DeviceID("phone-\($0)") }
    let policy = CardPolicy(staleAfter: 600, renewAfter: 3 * 3600, updateTokenMaxAge: 5 * 3600)

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// Answers (some of) what the watcher asked of APNs, later.
    mutating func absorb(_ effects: [WatcherEffect]) {
        for effect in effects {
            switch effect {
            case .send(let batch):
                let status = [200, 200, 200, 200, 410, 429, 500].randomElement(using: &random)!
                let results = batch.targets.map { TokenResult(target: $0, status: status) }
                let broadcast = batch.channel.map { _ in ChannelAnswer(status: [200, 200, 200, 400].randomElement(using: &random)!) }
                let receipt = PushReceipt(batchId: batch.id, deviceId: batch.deviceId, results: results, broadcast: broadcast)
                outstanding.append(.pushAnswered(receipt, at: 0))
            case .requestChannel(.create(let device, let env, _)):
                channelsMade += 1
                let answer = Int.random(in: 0..<5, using: &random) == 0
                    ? ChannelAnswer(status: 500) : ChannelAnswer(status: 201, channelId: channelID(channelsMade))
                outstanding.append(.channelCreationAnswered(device, env, answer, at: 0))
            case .requestChannel(.delete(let channel)):
                outstanding.append(.channelDeletionAnswered(channel, ChannelAnswer(status: 204), at: 0))
            default: continue
            }
        }
    }

    /// The next few things that happen, the clock moved first.
    mutating func nextEvents() -> [WatcherEvent] {
        now += [0.01, 0.5, 2, 5, 30, 400, 1_800, 4 * 3600].randomElement(using: &random)!
        var events: [WatcherEvent] = []
        if !outstanding.isEmpty, Bool.random(using: &random) {
            let count = Int.random(in: 1...outstanding.count, using: &random)
            events += outstanding.prefix(count).map { $0.at(now) }
            outstanding.removeFirst(count)
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) { events.append(deviceEvent()) }
        for _ in 0..<Int.random(in: 0...3, using: &random) { changeFleet() }
        events.append(.ticked(fleet, at: now))
        return events
    }

    private mutating func deviceEvent() -> WatcherEvent {
        let device = devices.randomElement(using: &random)!
        let hexDigit = String(Int.random(in: 1...9, using: &random))
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            let hidden: HiddenDirs = [[], ["/w/b"], ["/w/a"]].randomElement(using: &random)!
            let apnsToken = Bool.random(using: &random) ? String(repeating: hexDigit + "b", count: 32) : nil
            let widgetToken = Bool.random(using: &random) ? String(repeating: hexDigit + "c", count: 32) : nil
            let profile = DeviceProfile(
                env: .sandbox, apnsToken: apnsToken, widgetPushToken: widgetToken, hiddenDirs: hidden,
                liveActivityChannels: Int.random(in: 0..<3, using: &random) == 0)
            return .deviceReported(device, profile, at: now)
        case 2, 3, 4:
            return .tokenRegistered(device, .pushToStart, .sandbox, hex: String(repeating: hexDigit, count: 64), at: now)
        case 5, 6:
            return .tokenRegistered(device, .update, .sandbox, hex: String(repeating: hexDigit + "a", count: 32), at: now)
        case 7: return .appStateReported(device, Bool.random(using: &random) ? .foreground : .background, at: now)
        case 8: return .endedReported(device, at: now)
        default: return .ticked(fleet, at: now)
        }
    }

    private mutating func changeFleet() {
        let sid = SessionID("s\(Int.random(in: 0..<12, using: &random))")
        let host = HostID("host-\(Int.random(in: 0..<3, using: &random))")
        switch Int.random(in: 0..<8, using: &random) {
        case 0: fleet.remove(sid)
        case 1: fleet.heartbeat(host, HostHeartbeat(lastSeen: now, ttlSeconds: [1, 60, 3_600].randomElement(using: &random)!))
        default:
            let prompt: Prompt? = Int.random(in: 0..<3, using: &random) == 0
                ? Prompt(id: "q-\(sid)", kind: .question, text: "Which?", expiresAt: now + 90) : nil
            let report = SessionReport(
                title: "Task \(Int.random(in: 0..<3, using: &random))", host: host,
                cwd: ["/w/a", "/w/b", "/w/c"].randomElement(using: &random)!, busy: Bool.random(using: &random),
                prompt: prompt, archived: Int.random(in: 0..<10, using: &random) == 0)
            fleet.put(sid, report, heardAt: now)
        }
    }
}

extension WatcherEvent {
    /// The same answer, arriving at `time`.
    func at(_ time: UnixTime) -> WatcherEvent {
        switch self {
        case .pushAnswered(let receipt, _): .pushAnswered(receipt, at: time)
        case .channelCreationAnswered(let device, let env, let answer, _): .channelCreationAnswered(device, env, answer, at: time)
        case .channelDeletionAnswered(let channel, let answer, _): .channelDeletionAnswered(channel, answer, at: time)
        default: self
        }
    }
}
