import APNs
import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Synchronization
import Testing

/// A change's push never waits behind routine stale-date refreshes: while the service runs, a tick sends its
/// refreshes beside the tick loop, which moves on to the next change at once.
@Suite struct RefreshAsideTests {
    @Test("A change is pushed while the previous tick's refresh is still waiting for APNs", .timeLimit(.minutes(1)))
    func changeIsNotHeldBehindARefresh() async throws {
        let (time, gateway, service) = try await Self.startedService()
        let loop = Task { await service.run() }
        defer { loop.cancel() }
        // "steady" shows /work, "probe" shows /probe: a probe report changes the probe's card only.
        try await service.reportDevice("steady", DeviceProfile(env: .sandbox, hiddenDirs: ["/probe"]), pushToStartToken: nil)
        try await service.reportDevice("probe", DeviceProfile(env: .sandbox, hiddenDirs: ["/work"]), pushToStartToken: nil)
        // Sessions first: a card adopted with nothing to show would be ended.
        try await service.putSession("w1", SessionReport(title: "Build", cwd: "/work", busy: true))
        try await service.putSession("p1", SessionReport(title: "Probe", cwd: "/probe", busy: true))
        try await service.registerToken("steady", .update, env: .sandbox, hex: hexA)
        try await bounded("the steady card pushed") { while gateway.delivered.count < 1 { await Task.yield() } }
        // The probe's card starts 100 s later, so its own refresh is not due with the steady one's.
        time.advance(100)
        try await service.registerToken("probe", .update, env: .sandbox, hex: hexB)
        try await bounded("both cards pushed") { while gateway.delivered.count < 2 { await Task.yield() } }
        try await bounded("both answers recorded") {
            while await service.watcherSnapshot.boxes.values.contains(where: { $0.pending != nil }) { await Task.yield() }
        }

        // The steady card's refresh falls due; APNs holds its answer.
        gateway.hold("steady")
        time.advance(600 - CardPolicy(staleAfter: 600).staleRefreshLead - 100)
        // The tick loop wakes (a heartbeat) and sends the refresh, whose answer APNs holds.
        try await service.heartbeat("mac", ttlSeconds: 3_600)
        try await bounded("the refresh sent") { while gateway.delivered.count < 3 { await Task.yield() } }
        // A probe report: the tick loop pushes it while the refresh still waits (it used to wait for the
        // refresh's answer first).
        time.advance(10)
        try await service.putSession("p1", SessionReport(title: "Probe", cwd: "/probe", busy: false))
        try await bounded("the probe's change pushed by the tick loop", within: .seconds(5)) {
            while gateway.delivered.count < 4 { await Task.yield() }
        }
        let sent = gateway.delivered.map { "\($0.deviceId) \($0.action)" }
        #expect(sent == ["steady update", "probe update", "steady update", "probe end"])
        #expect(gateway.heldCount == 1)
        gateway.releaseAll()
        try await bounded("the refresh answered and recorded") {
            while await service.watcherSnapshot.boxes["steady"]?.pending != nil { await Task.yield() }
        }
    }

    @Test("With a wave of refreshes queued, a change's push leaves before the refreshes still waiting", .timeLimit(.minutes(1)))
    func changeLeavesBeforeAQueuedWave() async throws {
        let (time, gateway, service) = try await Self.startedService()
        let loop = Task { await service.run() }
        defer { loop.cancel() }
        // A wave: cards started together reach their stale-date refresh together.
        let wave = 2 * RefreshQueue.sliceSize + 20
        let steady = (0..<wave).map { DeviceID("steady-\($0)") }
        try await service.putSession("w1", SessionReport(title: "Build", cwd: "/work", busy: true))
        try await service.putSession("p1", SessionReport(title: "Probe", cwd: "/probe", busy: true))
        for (index, device) in steady.enumerated() {
            try await service.reportDevice(device, DeviceProfile(env: .sandbox, hiddenDirs: ["/probe"]), pushToStartToken: nil)
            try await service.registerToken(device, .update, env: .sandbox, hex: Self.hex(index))
        }
        try await bounded("the steady cards pushed") { while gateway.delivered.count < wave { await Task.yield() } }
        time.advance(100)
        try await service.reportDevice("probe", DeviceProfile(env: .sandbox, hiddenDirs: ["/work"]), pushToStartToken: nil)
        try await service.registerToken("probe", .update, env: .sandbox, hex: hexB)
        try await bounded("every card pushed and answered") {
            while gateway.delivered.count < wave + 1 { await Task.yield() }
            while await service.watcherSnapshot.boxes.values.contains(where: { $0.pending != nil }) { await Task.yield() }
        }

        // The wave falls due; APNs holds the answers of the slice sent, so the rest of the wave stays queued.
        for device in steady { gateway.hold(device) }
        time.advance(600 - CardPolicy(staleAfter: 600).staleRefreshLead - 100)
        try await service.heartbeat("mac", ttlSeconds: 3_600)
        try await bounded("the first slice of the wave sent") {
            while gateway.heldCount < RefreshQueue.sliceSize { await Task.yield() }
        }
        time.advance(10)
        try await service.putSession("p1", SessionReport(title: "Probe", cwd: "/probe", busy: false))
        try await bounded("the probe's change pushed", within: .seconds(5)) {
            while !gateway.delivered.contains(where: { $0.deviceId == "probe" && $0.action == .end }) { await Task.yield() }
        }
        let sent = Array(gateway.delivered.dropFirst(wave + 1))
        #expect(sent.count == RefreshQueue.sliceSize + 1)
        #expect(sent.dropLast().allSatisfy { $0.deviceId != "probe" && $0.isStaleDateRefresh })
        #expect(sent.last.map { $0.deviceId == "probe" && !$0.isStaleDateRefresh } == true)
        gateway.releaseAll()
        try await bounded("the rest of the wave sent and answered") {
            while gateway.delivered.count < 2 * wave + 2 { await Task.yield() }
            while await service.watcherSnapshot.boxes.values.contains(where: { $0.pending != nil }) { await Task.yield() }
        }
        #expect(gateway.delivered.dropFirst(wave + 1).filter(\.isStaleDateRefresh).count == wave)
    }

    /// A started service on a manual clock whose timer never fires in a test (changes wake it), pushing
    /// through a gateway that holds the answers a test asks it to.
    static func startedService() async throws -> (ManualTime, HoldingGateway, ControlPlaneService) {
        let time = ManualTime()
        let gateway = HoldingGateway()
        let service = ControlPlaneService(
            .init(
                store: InMemoryStore(), gateway: gateway, decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock,
                clock: ManualClock(), policy: CardPolicy(staleAfter: 600), tickInterval: .seconds(600),
                coalesceWindow: .zero))
        try await service.start()
        return (time, gateway, service)
    }

    /// A distinct update token per steady device.
    static func hex(_ index: Int) -> String {
        let digits = String(index, radix: 16)
        return String(repeating: "a", count: 64 - digits.count) + digits
    }
}

/// APNs answering 200 at once, except for the devices a test holds: their answers wait for ``releaseAll()``.
final class HoldingGateway: PushGateway {
    private struct State {
        var held: Set<DeviceID> = []
        var delivered: [PushBatch] = []
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var delivered: [PushBatch] { state.withLock { $0.delivered } }
    var heldCount: Int { state.withLock { $0.waiting.count } }

    func hold(_ device: DeviceID) { state.withLock { _ = $0.held.insert(device) } }

    func releaseAll() {
        let waiting = state.withLock { state in
            defer {
                state.waiting = []
                state.held = []
            }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func deliver(_ batch: PushBatch) async -> [TokenResult] {
        let isHeld = state.withLock { state in
            state.delivered.append(batch)
            return state.held.contains(batch.deviceId)
        }
        if isHeld {
            await withCheckedContinuation { continuation in
                let isReleased = state.withLock { state in
                    guard state.held.contains(batch.deviceId) else { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if isReleased { continuation.resume() }
            }
        }
        return batch.targets.map { TokenResult(target: $0, status: 200, reason: nil, apnsId: nil, milliseconds: 1) }
    }
}
