import APNs
import ControlPlane
import FleetCore
import Testing

/// The priority budget (guard `priority-budget`): priority 10 for what needs the person, never delayed;
/// routine changes at priority 5, at most one per device per interval, the latest state never lost.
@Suite struct PushBudgetTests {
    static let working = ContentState(working: 1, rows: [Row(sid: "s1", title: "t", state: .working, since: 1)])
    static let asking = ContentState(needsInput: 1, rows: [Row(sid: "s1", title: "t", state: .needsInput, since: 2)])
    static let twoWorking = ContentState(
        working: 2,
        rows: [Row(sid: "s1", title: "t", state: .working, since: 1), Row(sid: "s2", title: "t", state: .working, since: 3)])

    let budget = PushBudget()

    @Test("Starts, ends and a new needs-input are priority 10; a step, a title or a working count are priority 5")
    func priorities() {
        #expect(PushBudget.needsPerson(.start, shown: nil, next: Self.working))
        #expect(PushBudget.needsPerson(.end, shown: Self.working, next: ContentState()))
        #expect(PushBudget.needsPerson(.update, shown: Self.working, next: Self.asking))
        #expect(!PushBudget.needsPerson(.update, shown: Self.working, next: Self.twoWorking))
        #expect(!PushBudget.needsPerson(.update, shown: Self.asking, next: Self.working))
        var retitled = Self.working
        retitled.rows[0].title = "new title"
        #expect(!PushBudget.needsPerson(.update, shown: Self.working, next: retitled))
        // Unknown content (adopted card): needs the person only if someone waits.
        #expect(PushBudget.needsPerson(.update, shown: nil, next: Self.asking))
        #expect(!PushBudget.needsPerson(.update, shown: nil, next: Self.working))
    }

    @Test("A routine push waits until the interval since the last push ends: 1 ms before waits, at the edge goes")
    func routineTimeEdges() {
        let last: UnixTime = 100
        let edge = last + budget.routineInterval
        #expect(budget.verdict(.update, shown: Self.working, next: Self.twoWorking, lastPushAt: last, immediateSent: [], now: edge - 0.001) == .wait(until: edge))
        #expect(budget.verdict(.update, shown: Self.working, next: Self.twoWorking, lastPushAt: last, immediateSent: [], now: edge) == .send(.powerConsidered))
        #expect(budget.verdict(.update, shown: Self.working, next: Self.twoWorking, lastPushAt: nil, immediateSent: [], now: 0) == .send(.powerConsidered))
    }

    @Test("A needs-you push is never delayed, even right after another push")
    func needsYouNeverWaits() {
        #expect(budget.verdict(.update, shown: Self.working, next: Self.asking, lastPushAt: 100, immediateSent: [100], now: 100.001) == .send(.immediate))
    }

    @Test("Past the hourly priority-10 budget a needs-you push still goes at once, at priority 5; an hour later 10 again")
    func hourlyBudgetEdges() {
        let sent = (0..<budget.immediatePerHour).map { UnixTime(1_000 + $0) }
        let first = sent[0]
        #expect(budget.verdict(.update, shown: Self.working, next: Self.asking, lastPushAt: nil, immediateSent: sent, now: first + 3599) == .send(.powerConsidered))
        #expect(budget.verdict(.update, shown: Self.working, next: Self.asking, lastPushAt: nil, immediateSent: sent, now: first + 3600) == .send(.immediate))
    }

    @Test("At the watcher: start 10; a working count waits for the interval and goes at 5 carrying the latest state")
    func coalescingKeepsTheLastState() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.work("s1")
        let start = try #require(harness.tick().batches.first)
        #expect(start.priority == .immediate)
        harness.answer(start)
        harness.register(.update, hex("c"))  // the app's token arrives; the card is adopted (content unknown)
        harness.answer(try #require(harness.tick().batches.first))
        let lastPush = harness.now
        harness.work("s2")
        #expect(harness.tick(advancing: 1).batches.isEmpty)
        harness.work("s3")
        #expect(harness.tick(advancing: 1).batches.isEmpty)
        harness.finish("s2")
        harness.work("s4", title: "the latest")
        harness.now = lastPush + PushBudget().routineInterval - 0.5
        #expect(harness.tick(advancing: 0).batches.isEmpty)
        let routine = try #require(harness.tick(advancing: 0.5).batches.first)
        #expect(routine.priority == .powerConsidered)
        #expect(routine.contentState.working == 3)
        #expect(routine.contentState.rows.map(\.sid) == ["s1", "s3", "s4"])
        #expect(routine.contentState.rows.last?.title == "the latest")
    }

    @Test("At the watcher: a new needs-input leaves at priority 10 within the same tick, inside a routine interval")
    func needsYouImmediate() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.work("s2")
        let routine = try #require(harness.tick().batches.first)
        harness.answer(routine)
        harness.ask("s3")
        let urgent = try #require(harness.tick(advancing: 0.1).batches.first)
        #expect(urgent.priority == .immediate)
        #expect(urgent.contentState.needsInput == 1)
    }

    @Test("A session flapping between working and needs-input spends at most the hourly priority-10 budget")
    func flappingStaysInBudget() {
        var harness = WatcherHarness.withLiveCard()
        var immediate = 0
        var needsYouLate = 0
        for second in stride(from: 0, to: 3600, by: 3) {
            if second % 6 == 0 { harness.ask("s1") } else { harness.work("s1") }
            let effects = harness.tickAndDeliver(advancing: 3)
            immediate += effects.batches.filter { $0.priority == .immediate }.count
            if second % 6 == 0, effects.batches.isEmpty, harness.card()?.contentState?.needsInput == 0 { needsYouLate += 1 }
        }
        #expect(immediate <= PushBudget().immediatePerHour)
        #expect(needsYouLate == 0)
    }

    static func pushes(_ guards: GuardSet) -> (count: Int, immediate: Int) {
        var harness = WatcherHarness.withLiveCard(guards: guards)
        var batches: [PushBatch] = []
        for index in 0..<60 {
            harness.work("s1", title: "step \(index)")
            batches += harness.tickAndDeliver(advancing: 1).batches
        }
        return (batches.count, batches.filter { $0.priority == .immediate }.count)
    }

    @Test("priority-budget: without it every step is a priority-10 push; with it a minute of steps is 12 priority-5 pushes")
    func guardPriorityBudget() {
        let guarded = Self.pushes(.all)
        #expect(guarded.count == 12)
        #expect(guarded.immediate == 0)
        let unguarded = Self.pushes(.without(.priorityBudget))
        #expect(unguarded.count == 60)
        #expect(unguarded.immediate == 60)
    }

    @Test("A session done or a question answered is priority 10 at once while under the spare budget; 5 past it")
    func spareBudgetEdges() {
        #expect(PushBudget.settlesSomething(shown: Self.twoWorking, next: Self.working))
        #expect(PushBudget.settlesSomething(shown: Self.asking, next: Self.working))
        #expect(!PushBudget.settlesSomething(shown: Self.working, next: Self.twoWorking))
        #expect(!PushBudget.settlesSomething(shown: Self.working, next: Self.working))
        #expect(!PushBudget.settlesSomething(shown: nil, next: Self.working))
        let spare = (0..<(budget.spareImmediatePerHour - 1)).map { UnixTime(1_000 + $0) }
        let now = spare[0] + 3599
        // Right after another push: no coalescing wait for a settling change under the spare budget.
        #expect(budget.verdict(.update, shown: Self.twoWorking, next: Self.working, lastPushAt: now - 1, immediateSent: spare, now: now) == .send(.immediate))
        let full = spare + [UnixTime(1_100)]
        #expect(budget.verdict(.update, shown: Self.twoWorking, next: Self.working, lastPushAt: now - 1, immediateSent: full, now: now) == .wait(until: now - 1 + budget.routineInterval))
        #expect(budget.verdict(.update, shown: Self.twoWorking, next: Self.working, lastPushAt: nil, immediateSent: full, now: now) == .send(.powerConsidered))
        // A new working session is routine whatever the budget.
        #expect(budget.verdict(.update, shown: Self.working, next: Self.twoWorking, lastPushAt: nil, immediateSent: [], now: now) == .send(.powerConsidered))
    }

    static func finishPriority(_ guards: GuardSet) throws -> PushPriority {
        var harness = WatcherHarness.withLiveCard(guards: guards)
        harness.work("s2")
        harness.answer(try #require(harness.tick().batches.first))
        harness.finish("s2")
        return try #require(harness.tick(advancing: 0.1).batches.first).priority
    }

    @Test("spare-budget: with it a session done leaves at once at priority 10; without it it waits for priority 5")
    func guardSpareBudget() throws {
        #expect(try Self.finishPriority(.all) == .immediate)
        var harness = WatcherHarness.withLiveCard(guards: .without(.spareBudget))
        harness.work("s2")
        harness.answer(try #require(harness.tick().batches.first))
        harness.finish("s2")
        #expect(harness.tick(advancing: 0.1).batches.isEmpty)
        #expect(try #require(harness.tick(advancing: PushBudget().routineInterval).batches.first).priority == .powerConsidered)
    }
}
