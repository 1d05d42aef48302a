import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import Synchronization
import Testing

/// A store that refuses, once, the first commit that records card history (the commit of a start's answer).
final class HistoryRefusingStore: Store {
    private let inner = InMemoryStore()
    private let isArmed = Mutex(true)

    func load() async throws(StoreError) -> StoreContents { try await inner.load() }
    func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        try await inner.history(deviceId: deviceId, limit: limit)
    }

    func commit(_ writes: [StoreWrite]) async throws(StoreError) {
        let recordsHistory = writes.contains { if case .recordHistory = $0 { true } else { false } }
        let refuses = recordsHistory && isArmed.withLock { armed in
            defer { armed = false }
            return armed
        }
        if refuses { throw StoreError(operation: "commit", message: "disk I/O error") }
        try await inner.commit(writes)
    }
}

@Suite struct UnrecordedAnswerTests {
    @Test("A failed commit of APNs answers is counted and the device keeps being served (re-sent next tick)")
    func deviceKeepsBeingServed() async throws {
        let gateway = ScriptedPushGateway.answeringEverything(status: 200)
        let problems = ProblemRecorder()
        let service = ControlPlaneService(.init(
            store: HistoryRefusingStore(), gateway: gateway, decisionLog: InMemoryDecisionLog(),
            wallClock: ManualTime().wallClock, reportProblem: problems.report))
        try await service.start()
        try await service.registerToken("phone", .pushToStart, env: .sandbox, hex: hexA)
        _ = try await service.putSession("s1", SessionReport(busy: true))

        await service.tick()
        #expect(gateway.delivered.map(\.action) == [.start])
        #expect(problems.all.count == 1)
        #expect(await service.liveActivityState().devices.first?.card == nil)

        // Before the fix the start stayed "in flight" forever and this tick skipped the device.
        await service.tick()
        #expect(gateway.delivered.map(\.action) == [.start, .start])
        let state = await service.liveActivityState()
        #expect(state.devices.first?.card != nil)
        #expect(state.unrecordedAnswerCommits == 1)
    }
}
