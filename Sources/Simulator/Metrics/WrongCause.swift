import FleetApp
import FleetCore

/// Why one phone's lock screen is not correct (or not honest) at one moment: the first cause that applies,
/// in this order, so every wrong second is counted once. The report sums seconds per cause
/// (`incorrectSecondsByCause`, `dishonestSecondsByCause`), which says which wrong seconds the product
/// could win back and which no product could (a phone with no network shows nothing new).
enum WrongCause: String, CaseIterable, Sendable {
    /// The phone has no network: nothing sent now reaches it.
    case offline = "phone-offline"
    /// Back online less than ``afterOutageWindow`` ago: what APNs stored and what the server sends next
    /// are on their way.
    case afterOutage = "after-outage"
    /// Something is active, no card is visible, and a pushing server believes one is live: APNs answered
    /// 200 to its start and the start never made a card (dropped after acceptance, refused by iOS over
    /// budget). Broadcast channels give no per-device answer, so no server can tell.
    case startLost = "start-lost"
    /// Something is active and no card is visible: a start is held, vetoed, or on its way.
    case noCard = "no-card"
    /// More than one card is visible.
    case severalCards = "several-cards"
    /// iOS holds a priority-10 push over its budget.
    case budgetHeld = "budget-held"
    /// The card can be addressed by nobody: its token never reached a pushing server, or its channel is
    /// gone (a start not adopted).
    case notAdopted = "start-not-adopted"
    /// The card is right but for a row's `since`, more than a minute off: the writers saw the state change
    /// late (a session that changed while its host was down is dated from when the host came back).
    case sinceDrift = "since-drift"
    /// The truth changed less than ``catchUpWindow`` ago: the push carrying it is in flight (APNs latency,
    /// opportunistic priority-5 delivery, the routine coalescing interval).
    case inFlight = "push-in-flight"
    /// A push for this phone was accepted by APNs (200) and never arrived (modelled drops after acceptance),
    /// and nothing landed since: the card stays wrong until the next change or the stale-date refresh. No
    /// server can tell (broadcasts have no per-device answer; a token push's 200 says nothing more).
    case dropped = "push-dropped"
    /// None of the above: a card the writers believe right but is not.
    case other = "other"

    /// How long after a reconnect a wrong card counts as the outage's doing.
    static let afterOutageWindow: Double = 30
    /// How long after a change of the truth a wrong card counts as a push in flight.
    static let catchUpWindow: Double = 10

    /// The cause for `phone`, whose lock screen is wrong now; `truthChangedAt` is when its truth last changed.
    static func of(
        _ phone: Phone, cards: [FleetActivity], truth: FleetReduction, truthChangedAt: Double,
        _ simulation: Simulation
    ) -> WrongCause {
        let now = simulation.now
        if !phone.isOnline { return .offline }
        if let back = phone.reconnectedAt, now - back < afterOutageWindow { return .afterOutage }
        if cards.isEmpty, truth.activeTotal > 0 {
            let believed = simulation.servers.contains { $0.believesCardLive(on: phone.device, in: simulation) }
            return believed ? .startLost : .noCard
        }
        if cards.count > 1 { return .severalCards }
        if !phone.held.isEmpty { return .budgetHeld }
        if cards.contains(where: { !MetricsRecorder.isAddressable($0, on: phone, simulation) }) { return .notAdopted }
        if now - truthChangedAt < catchUpWindow { return .inFlight }
        if cards.count == 1, CardCorrectness.matchesIgnoringSince(cards[0].content, truth.contentState) {
            return .sinceDrift
        }
        if phone.hasLostPush { return .dropped }
        return .other
    }
}

/// Seconds per ``WrongCause``, summed over a run.
struct WrongSeconds: Hashable, Sendable {
    private(set) var seconds: [String: Double] = [:]

    mutating func add(_ span: Double, to cause: WrongCause?) {
        guard let cause, span > 0 else { return }
        seconds[cause.rawValue, default: 0] += span
    }

    /// A JSON object, causes in ``WrongCause`` order, zero ones left out.
    var json: String {
        let fields = WrongCause.allCases.compactMap { cause -> String? in
            guard let value = seconds[cause.rawValue], value > 0 else { return nil }
            return "\"\(cause.rawValue)\":\(JSONNumber.text(value))"
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
