import APNs
import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import FleetCoreTesting
import Testing

/// A driver's step runs on a copy of the watcher that stages its writes to the boxes (``StagedDictionary``):
/// the watcher it was copied from is left as it was until the step is kept, and a step kept decides, sends
/// and remembers exactly what the same events handled in place do.
@Suite struct StagedStepTests {
    @Test("Random event streams run as staged steps give the same effects and boxes as handled in place", arguments: 1...8)
    func stagedStepsMatchInPlace(seed: UInt64) {
        var world = RandomWorld(seed: seed)
        var inPlace = Watcher(policy: world.policy)
        var kept = Watcher(policy: world.policy)
        var events: [WatcherEvent] = [.loaded(devices: [:], since: [:], at: world.now)]
        for step in 0..<200 {
            let before = kept.boxes.entries
            var next = kept
            next.beginStagedStep()
            var stagedEffects: [WatcherEffect] = []
            for event in events { stagedEffects += next.handle(event) }
            let expected = events.flatMap { inPlace.handle($0) }
            #expect(stagedEffects == expected, "seed \(seed) step \(step)")
            // Until the step is kept, the watcher it was copied from shows nothing of it.
            #expect(kept.boxes.entries == before, "seed \(seed) step \(step)")
            #expect(next.boxes == inPlace.boxes, "seed \(seed) step \(step): reads see the staged writes")
            // Every third step is dropped, as a failed commit drops it: the next one runs on the old watcher.
            if step % 3 == 2 {
                inPlace = kept
                world.absorb([])
            } else {
                kept = consume next
                kept.commitStagedStep()
                #expect(!kept.isStagingStep)
                #expect(kept.boxes == inPlace.boxes, "seed \(seed) step \(step)")
                world.absorb(expected)
            }
            events = world.nextEvents()
        }
    }

    @Test("A staged write, removal and overwrite read back at once and fold in on commit")
    func stagedDictionary() {
        var table = StagedDictionary<String, Int>(["a": 1, "b": 2])
        let copy = table
        table.beginStaging()
        table["a"] = 10
        table["b"] = nil
        table["c"] = 3
        table["c"] = 4
        #expect(table["a"] == 10 && table["b"] == nil && table["c"] == 4)
        #expect(table.entries == ["a": 10, "c": 4])
        #expect(copy.entries == ["a": 1, "b": 2])
        table.commitStaged()
        #expect(table.entries == ["a": 10, "c": 4])
        #expect(copy.entries == ["a": 1, "b": 2])
    }

    @Test("A failed commit leaves the service's watcher as it was, not staging; the next one is kept")
    func failedCommitChangesNothing() async throws {
        let store = InMemoryStore()
        let service = ControlPlaneService(
            .init(
                store: store, gateway: ScriptedPushGateway.answeringEverything(status: 200),
                decisionLog: InMemoryDecisionLog(), wallClock: ManualTime().wallClock, clock: ManualClock()))
        try await service.start()
        try await service.registerToken("phone", .update, env: .sandbox, hex: hexA)
        let before = await service.watcherSnapshot
        store.failNextCommit()
        await #expect(throws: (any Error).self) {
            try await service.registerToken("tablet", .update, env: .sandbox, hex: hexB)
        }
        let after = await service.watcherSnapshot
        #expect(after.boxes == before.boxes && after.deviceIds == before.deviceIds)
        #expect(!after.isStagingStep)
        try await service.registerToken("tablet", .update, env: .sandbox, hex: hexB)
        let kept = await service.watcherSnapshot
        #expect(kept.deviceIds == ["phone", "tablet"] && kept.boxes["tablet"]?.record.tokens.count == 1)
        #expect(!kept.isStagingStep)
    }
}
