/// Whose turn the driver's lock is next (``ControlPlaneService``'s FIFO lock, held across a store commit):
/// waiters in arrival order, except that recording the answers to routine stale-date refreshes waits behind
/// everything else. During a wave of refreshes (thousands of cards started together) their recordings would
/// otherwise take every other turn, and a change's tick or a report's commit would queue behind them.
///
/// A routine waiter is not starved: it gets the turn after at most ``urgentTurnsInARow`` others passed it.
public struct LockTurns<Waiter> {
    /// The most turns given to other waiters in a row while a routine one waits.
    public static var urgentTurnsInARow: Int { 8 }

    public private(set) var isHeld = false
    private var urgent: [Waiter] = []
    private var routine: [Waiter] = []
    private var passedRoutine = 0

    public init() {}

    /// Takes the lock if nobody holds it; false: the caller must wait (``enqueue(_:isRoutine:)``).
    public mutating func take() -> Bool {
        guard !isHeld else { return false }
        isHeld = true
        return true
    }

    /// Queues `waiter` for a turn.
    public mutating func enqueue(_ waiter: Waiter, isRoutine: Bool) {
        if isRoutine { routine.append(waiter) } else { urgent.append(waiter) }
    }

    /// Hands the lock on: the waiter whose turn it is now (it holds the lock), or nil when the lock is free.
    public mutating func pass() -> Waiter? {
        if !urgent.isEmpty, routine.isEmpty || passedRoutine < Self.urgentTurnsInARow {
            if !routine.isEmpty { passedRoutine += 1 }
            return urgent.removeFirst()
        }
        passedRoutine = 0
        guard !routine.isEmpty else {
            isHeld = false
            return nil
        }
        return routine.removeFirst()
    }
}
