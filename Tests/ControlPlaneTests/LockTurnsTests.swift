import ControlPlane
import Testing

/// The driver's lock: waiters in arrival order, the recording of routine refreshes' answers after the rest,
/// and never starved.
@Suite struct LockTurnsTests {
    @Test("A free lock is taken at once; waiters get it in arrival order; the last release frees it")
    func arrivalOrder() {
        var turns = LockTurns<String>()
        let taken = turns.take()
        let takenAgain = turns.take()
        #expect(taken && !takenAgain)
        turns.enqueue("tick", isRoutine: false)
        turns.enqueue("report", isRoutine: false)
        let order = [turns.pass(), turns.pass()]
        #expect(order == ["tick", "report"])
        #expect(turns.isHeld)
        let last = turns.pass()
        #expect(last == nil && !turns.isHeld)
    }

    @Test("A change's tick waiting behind queued refresh recordings goes first")
    func changesBeforeRefreshRecordings() {
        var turns = LockTurns<String>()
        _ = turns.take()
        turns.enqueue("refresh answers 1", isRoutine: true)
        turns.enqueue("refresh answers 2", isRoutine: true)
        turns.enqueue("tick", isRoutine: false)
        let order = [turns.pass(), turns.pass(), turns.pass(), turns.pass()]
        #expect(order == ["tick", "refresh answers 1", "refresh answers 2", nil])
    }

    @Test("A refresh recording gets its turn after at most a few others passed it, however many keep coming")
    func routineIsNotStarved() {
        var turns = LockTurns<String>()
        _ = turns.take()
        turns.enqueue("refresh answers", isRoutine: true)
        var given: [String] = []
        for index in 0..<20 {
            turns.enqueue("tick \(index)", isRoutine: false)
            if let next = turns.pass() { given.append(next) }
        }
        let position = given.firstIndex(of: "refresh answers")
        #expect(position == LockTurns<String>.urgentTurnsInARow)
    }
}
