import FleetApp
import FleetAppTesting
import FleetCore

/// A Live Activity push as APNs hands it to a phone: a start to a push-to-start token, an update or end
/// to an update token, or a broadcast on a channel.
enum IncomingPush {
    case start(PushToken, ContentState, staleDate: UnixTime?, inputPushChannel: String?)
    case token(PushToken, LiveActivityPush)
    case broadcast(channel: String, LiveActivityPush)

    var isStart: Bool {
        if case .start = self { return true }
        return false
    }

    /// What a held (over-budget) push is kept under: a newer one for the same card replaces it.
    var holdKey: String {
        switch self {
        case .start(let token, _, _, _): "start/" + token.hex
        case .token(let token, _): "token/" + token.hex
        case .broadcast(let channel, _): "channel/" + channel
        }
    }
}

/// iOS's priority-10 budget for one app's Live Activity pushes (reference 4.6: unpublished; third parties
/// quote about 15 an hour). Over it, iOS holds an update until the rolling hour frees a slot (only the
/// newest per card is kept) and refuses a start outright, while APNs has already answered 200.
struct ImmediateBudget {
    let perHour: Int
    private var spent: [Double] = []

    init(perHour: Int) { self.perHour = perHour }

    /// Spends one slot at `now` if there is one.
    mutating func spend(at now: Double) -> Bool {
        spent.removeAll { $0 + 3600 <= now }
        guard spent.count < perHour else { return false }
        spent.append(now)
        return true
    }

    /// When the next slot frees (the oldest spend leaves the rolling hour).
    func nextSlot(after now: Double) -> Double { (spent.first ?? now) + 3600 }
}

extension Phone {
    /// APNs hands `push` to this (online) phone with `priority`; a priority-5 push lands after
    /// `routineDelay` (opportunistic delivery), a priority-10 one at once if the budget allows.
    func receive(_ push: IncomingPush, priority: Int, routineDelay: Double, _ simulation: Simulation) {
        // A push for no card of this install (a dead token, a rotated start token) costs iOS nothing.
        guard priority == 10, reachesSomething(push) else {
            simulation.after(routineDelay) { [self] in apply(push, $0) }
            return
        }
        guard budget.spend(at: simulation.now) else {
            if push.isStart {
                simulation.note("\(name): iOS refused a push-to-start over the priority-10 budget")
                simulation.metrics.startRefusedByIOS()
                return
            }
            hold(push, simulation)
            return
        }
        apply(push, simulation)
    }

    /// Whether a live card on this phone follows channel `id`.
    func follows(_ id: String) -> Bool {
        rig.host.fleetActivities.contains { rig.host.channel(of: $0.id) == id }
    }

    /// Whether `push` would touch anything on this phone now.
    private func reachesSomething(_ push: IncomingPush) -> Bool {
        switch push {
        case .start(let token, _, _, _): return token == rig.host.pushToStartToken
        case .token(let token, _):
            return rig.host.fleetActivities.contains { rig.host.updateToken(of: $0.id) == token }
        case .broadcast(let channel, _):
            return rig.host.fleetActivities.contains { rig.host.channel(of: $0.id) == channel }
        }
    }

    /// Over budget: keep the newest push per card until a slot frees, then apply it.
    private func hold(_ push: IncomingPush, _ simulation: Simulation) {
        let key = push.holdKey
        let isFirst = held[key] == nil
        held[key] = push
        simulation.note("\(name): iOS holds an update over the priority-10 budget")
        guard isFirst else { return }
        simulation.at(budget.nextSlot(after: simulation.now)) { [self] simulation in
            guard let newest = held.removeValue(forKey: key) else { return }
            receive(newest, priority: 10, routineDelay: 0, simulation)
        }
    }

    /// iOS applies a push that got through.
    func apply(_ push: IncomingPush, _ simulation: Simulation) {
        hasLostPush = false
        switch push {
        case .start(let token, let content, let staleDate, let channel):
            pushStarted(token, content: content, staleDate: staleDate, inputPushChannel: channel, in: simulation)
        case .token(let token, let push):
            deliver(push, to: token, in: simulation)
        case .broadcast(let channel, let push):
            rig.host.deliverBroadcast(push, onChannel: channel)
            pump(simulation)
        }
    }
}
