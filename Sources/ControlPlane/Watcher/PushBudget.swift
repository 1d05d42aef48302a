import APNs
import FleetCore

/// Which priority a card push gets, and whether a routine one waits (guard `priority-budget`).
///
/// - Priority 10 is for what needs the person: a start (a card's birth, rare, and a late one leaves
///   nothing on screen), an end (the last session done), and an update that brings a new needs-input.
///   It is never delayed. iOS counts priority-10 Live Activity pushes against an unpublished hourly
///   budget and throttles past it, so once a device spent ``immediatePerHour`` of them in the last hour,
///   the rest still go at once, at priority 5: on the wire without delay, but not spending the budget.
/// - Everything else (a step, a title, a working count, a stale-date refresh) is routine: priority 5,
///   and at most one push per device per ``routineInterval``. A routine change inside the interval
///   waits; the watcher compares the card with the fleet on every tick, so the latest state goes out
///   when the interval ends and no state is ever lost, only merged (seed 002's 5-second rule, T3 Code's
///   15-second throttle with exceptions).
///
/// - A change that settles something the person would act on (a session done, a question answered
///   elsewhere) but does not need them now goes at priority 10, at once, while the device spent fewer
///   than ``spareImmediatePerHour`` priority-10 pushes in the last hour (guard `spare-budget`): the budget
///   iOS gives is otherwise left unused, and priority-5 delivery is opportunistic (seconds late on an
///   idle phone). At most that many, so at least `immediatePerHour - spareImmediatePerHour` stay for
///   needs-you pushes in any hour.
///
/// Because a waiting routine change leaves the card as it was, an agent flapping between working and
/// needs-input keeps showing needs-input until the interval ends, instead of spending a priority-10
/// push on every flap.
public struct PushBudget: Hashable, Sendable {
    /// What to do with a push that is due.
    public enum Verdict: Hashable, Sendable {
        /// Send it now at this priority.
        case send(PushPriority)
        /// A routine push inside the coalescing interval: wait until then (the latest state goes then).
        case wait(until: UnixTime)
    }

    /// At most one routine push per device per this many seconds.
    public var routineInterval: Double
    /// Priority-10 pushes a device may get per rolling hour (the folklore budget is about 15; a few are
    /// kept spare for the app's own work and for iOS counting differently).
    public var immediatePerHour: Int
    /// A settling change (a session done, a question answered) goes at priority 10 only while fewer than
    /// this many priority-10 pushes went in the last hour: half the budget, the other half kept for
    /// needs-you pushes.
    public var spareImmediatePerHour: Int

    public init(routineInterval: Double = 5, immediatePerHour: Int = 12, spareImmediatePerHour: Int = 6) {
        self.routineInterval = routineInterval
        self.immediatePerHour = immediatePerHour
        self.spareImmediatePerHour = min(spareImmediatePerHour, immediatePerHour)
    }

    /// The verdict for `action` taking the card from `shown` (nil: unknown, as after adoption) to `next`.
    ///
    /// - Parameters:
    ///   - lastPushAt: when the device's last push of any kind was decided; nil if none this process.
    ///   - immediateSent: when each priority-10 push of the last hour (or more) was decided.
    ///   - spendsSpare: guard `spare-budget`: a settling change may use the spare budget.
    public func verdict(
        _ action: PushAction, shown: ContentState?, next: ContentState, lastPushAt: UnixTime?,
        immediateSent: [UnixTime], now: UnixTime, spendsSpare: Bool = true
    ) -> Verdict {
        let spent = immediateSent.filter { $0 > now - 3600 }.count
        guard Self.needsPerson(action, shown: shown, next: next) else {
            if spendsSpare, spent < spareImmediatePerHour, action == .update,
                Self.settlesSomething(shown: shown, next: next)
            {
                return .send(.immediate)
            }
            if let lastPushAt, now < lastPushAt + routineInterval { return .wait(until: lastPushAt + routineInterval) }
            return .send(.powerConsidered)
        }
        return .send(spent < immediatePerHour ? .immediate : .powerConsidered)
    }

    /// A change the person would act on although nobody waits: a session left the card's count (done), or a
    /// row the card showed as needs-input no longer is (answered, perhaps on another device). Unknown
    /// content (nil, as after adoption) settles nothing.
    public static func settlesSomething(shown: ContentState?, next: ContentState) -> Bool {
        guard let shown else { return false }
        if next.activeTotal < shown.activeTotal { return true }
        let waiting = Set(next.rows.filter { $0.state == .needsInput }.map(\.sid))
        return shown.rows.contains { $0.state == .needsInput && !waiting.contains($0.sid) }
    }

    /// Whether the push brings something that needs the person: a start, an end, or a new needs-input.
    public static func needsPerson(_ action: PushAction, shown: ContentState?, next: ContentState) -> Bool {
        switch action {
        case .start, .end: return true
        case .update: return bringsNewNeedsInput(shown: shown, next: next)
        }
    }

    /// A session newly waiting on the person: more needs-input than shown, or a needs-input row whose
    /// sid the card did not show as needs-input.
    public static func bringsNewNeedsInput(shown: ContentState?, next: ContentState) -> Bool {
        guard let shown else { return next.needsInput > 0 }
        if next.needsInput > shown.needsInput { return true }
        let waiting = Set(shown.rows.filter { $0.state == .needsInput }.map(\.sid))
        return next.rows.contains { $0.state == .needsInput && !waiting.contains($0.sid) }
    }
}
