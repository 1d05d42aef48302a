import FleetCore

/// What the server remembers about one device's card: the seed's "fleet box".
struct DeviceBox: Hashable {
    /// The card the server believes is on screen: nil when none; `content` nil when adopted unseen.
    struct Card: Hashable { var content: ContentState? }

    var card: Card?
    var since: SinceMap = [:]
    /// The population the phone last ended against; a start is refused while every active sid is in it.
    var veto: Set<SessionID>?
    /// The population `start-vetoed` was last logged for (logged once per population).
    var vetoLogged: Set<SessionID>?
    /// A push is in flight for this device: the tick skips it ("skipped if the previous tick is still running").
    var isSending = false
}

/// The watcher's decision table (contract section 6), as a pure step over a ``DeviceBox``.
///
/// STAND-IN: this mirrors what ControlPlane's watcher must do, built from FleetCore's real reducer and
/// comparison, until that module lands on main; then the simulator drives the real one instead.
/// Every server-side guard is a branch here that honours the ``GuardSet``.
enum StandInWatcher {
    enum Action: Hashable {
        case nothing
        case start(ContentState)
        case vetoed(population: Set<SessionID>, isFirstLog: Bool)
        case update(ContentState)
        case end(ContentState)

        /// Whether the decision log records it (`start-vetoed` once per population).
        var isWorthLogging: Bool {
            switch self {
            case .nothing: false
            case .vetoed(_, let isFirstLog): isFirstLog
            default: true
            }
        }

        /// The decision log's name for it.
        var label: String {
            switch self {
            case .nothing: "nothing"
            case .start(let content): "start \(content.activeTotal)"
            case .vetoed(let population, _): "start-vetoed \(population.map(\.rawValue).sorted())"
            case .update(let content): "update \(content.activeTotal)"
            case .end: "end"
            }
        }
    }

    /// One tick for one device.
    static func decide(_ box: inout DeviceBox, reduction: FleetReduction, now: UnixTime, guards: GuardSet) -> Action {
        // An unknown count must not rewrite the baselines: the down host's sessions would lose theirs.
        if reduction.isTrustworthy { box.since = reduction.since }
        let activeAll = Set(reduction.since.keys)
        guard let card = box.card else {
            guard reduction.activeTotal > 0 else { return .nothing }
            if guards.isOn(.startVeto), let veto = box.veto, activeAll.isSubset(of: veto) {
                let isFirst = box.vetoLogged != activeAll
                box.vetoLogged = activeAll
                return .vetoed(population: activeAll, isFirstLog: isFirst)
            }
            return .start(reduction.contentState)
        }
        // An unknown count (a host down) must never end or zero a card: leave it as it is.
        guard reduction.isTrustworthy else { return .nothing }
        if reduction.activeTotal == 0 { return .end(ContentState.zeroed(at: now)) }
        if card.content.isSame(as: reduction.contentState, guards: guards) { return .nothing }
        return .update(reduction.contentState)
    }

    /// Applies the outcome of an action's sends: `accepted` of `attempted` tokens took it.
    static func delivered(_ box: inout DeviceBox, action: Action, attempted: Int, accepted: Int, guards: GuardSet) {
        switch action {
        case .start(let content):
            // Start needs one acceptance: re-blasting stale tokens could stack duplicates.
            guard accepted > 0 else { return }
            box.card = DeviceBox.Card(content: content)
            box.veto = nil
            box.vetoLogged = nil
        case .update(let content), .end(let content):
            // The zombie-card fix: a corpse's 200 alone must not advance the state.
            let isDelivered = guards.isOn(.allAccept) ? (attempted > 0 && accepted == attempted) : accepted > 0
            guard isDelivered else { return }
            if case .end = action { box.card = nil } else { box.card = DeviceBox.Card(content: content) }
        case .nothing, .vetoed:
            return
        }
    }

    /// `POST update-token`: proof a card is on screen; adopt it instead of starting a second one.
    static func updateTokenRegistered(_ box: inout DeviceBox, guards: GuardSet) {
        guard guards.isOn(.adoptOnRegister) else { return }
        box.card = DeviceBox.Card(content: nil)
        box.veto = nil
        box.vetoLogged = nil
    }

    /// `POST ended`: forget the card and record the veto population (the sids active on the server now).
    static func endedReported(_ box: inout DeviceBox, population: Set<SessionID>) {
        box.card = nil
        box.veto = population
        box.vetoLogged = nil
    }
}
