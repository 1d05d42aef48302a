import FleetApp
import FleetCore

/// Integrates what the lock screens show against the truth, and counts what the writers did.
///
/// Everything on screen changes only when an action runs, so the recorder looks after each action and
/// credits the time since the previous look to the state it saw then.
struct MetricsRecorder {
    private var lastTime = 0.0
    private var isCorrect = true
    private var hasMultipleCards = false
    private var hasFrozenCard = false
    private var hasOverheightCard = false
    private var isUntrustworthy = false
    private var isHonest = true
    private var isLying = false
    private var correctSeconds = 0.0
    private var honestSeconds = 0.0
    private var lyingSeconds = 0.0
    private var multiCardSeconds = 0.0
    private var frozenSeconds = 0.0
    private var overheightSeconds = 0.0
    private var untrustworthySeconds = 0.0
    private var maxVisibleCards = 0
    /// Why the lock screens are wrong (or dishonest) now, and the seconds per cause so far.
    private var wrongCause: WrongCause?
    private var dishonestCause: WrongCause?
    private var incorrectByCause = WrongSeconds()
    private var dishonestByCause = WrongSeconds()
    /// The best any product could do in the same outages (see ``OracleBound``).
    private var oracle = OracleBound()
    private var isOracleCorrect = true
    private var isOracleHonest = true
    private var oracleCorrectSeconds = 0.0
    private var oracleHonestSeconds = 0.0
    /// The same oracle bound by the world's delivery rules (see ``DeliveryBound``).
    private var deliveryBound = DeliveryBound()

    private var truthVersion = -1
    private var truths: [FleetReduction] = []
    /// When each phone's truth last changed (simulated seconds).
    private var truthChangedAt: [Double] = []
    /// The sessions active when the person swiped each phone's card away: while only they run, the right
    /// Lock Screen is no card (the person said so); a new session, or none at all, ends it.
    private var dismissed: [Int: Set<SessionID>] = [:]
    private var activeWhenLastTrustworthy: [Bool] = []
    private var pendingChanges: [Double] = []
    private var timesToCorrect: [Double] = []

    private var starts = 0
    private var serverStarts = 0
    private var clientEnded = 0
    private var startEndLoops = 0
    private var pushes = 0
    private var startsRefusedByIOS = 0
    private var truthChanges = 0
    private var lastPushStart: [Int: Double] = [:]
    private var timeliness = TimelinessRecorder()
    private var pushStartedCards: [PushStartedCard] = []

    /// A card a push-to-start created, and when its update token first reached the canonical server.
    private struct PushStartedCard {
        var phone: Int
        var id: ActivityID
        var appearedAt: Double
        var tokenReachedServerAt: Double?
        var goneAt: Double?
    }

    /// A push-started card gone this soon was killed, not finished with (the seed's "~2 s after it appeared").
    static let killWindow: Double = 30

    /// A start followed by a client end within this many seconds is one turn of the start/end loop.
    static let loopWindow: Double = 90

    // MARK: counts

    /// One push left a server for `phone` (nil: a device no phone in the world has).
    mutating func pushSent(phone: Int?, content: ContentState, priority: Int, _ simulation: Simulation) {
        pushes += 1
        guard let phone else { return }
        timeliness.pushSent(phone: phone, content: content, priority: priority, at: simulation.now)
    }

    /// iOS refused a push-to-start APNs had accepted (over the priority-10 budget).
    mutating func startRefusedByIOS() { startsRefusedByIOS += 1 }

    /// The scenario's checkpoint at hour `hour`: are the lock screens right now?
    mutating func checkpoint(hour: Int, _ simulation: Simulation) {
        timeliness.checkpoint(hour: hour, correct: isCorrect)
    }
    mutating func serverStarted() { serverStarts += 1 }

    /// The app started a card itself (`Activity.request`).
    mutating func cardRequested(on phone: Phone) { starts += 1 }

    /// A push-to-start created a card on `phone`.
    mutating func cardPushStarted(_ id: ActivityID, on phone: Phone, _ simulation: Simulation) {
        starts += 1
        lastPushStart[phone.index] = simulation.now
        pushStartedCards.append(PushStartedCard(phone: phone.index, id: id, appearedAt: simulation.now))
    }

    /// An update token from `phone` reached the canonical server: if it is a push-started card's, the
    /// server can address that card from now on.
    mutating func updateTokenReached(_ token: PushToken, on phone: Phone, _ simulation: Simulation) {
        for index in pushStartedCards.indices
        where pushStartedCards[index].phone == phone.index && pushStartedCards[index].tokenReachedServerAt == nil
            && phone.rig.host.updateToken(of: pushStartedCards[index].id) == token
        {
            pushStartedCards[index].tokenReachedServerAt = simulation.now
        }
    }

    /// The person swiped `phone`'s card away while `population` was active.
    mutating func personDismissed(phone: Int, population: Set<SessionID>) { dismissed[phone] = population }

    /// The app reported ending its card (`/ended` to its default server).
    mutating func endedReported() { clientEnded += 1 }

    /// The default server heard an `/ended` while it still counts `population` active: the phone and the
    /// server disagree, so the server wants to start again. After a push-start, that is one turn of the loop.
    mutating func endedAgainstActive(_ device: DeviceID, population: [String], _ simulation: Simulation) {
        guard let phone = simulation.phones.first(where: { $0.device == device }) else { return }
        defer { lastPushStart[phone.index] = nil }
        guard !population.isEmpty, let started = lastPushStart[phone.index],
            simulation.now - started <= Self.loopWindow
        else { return }
        startEndLoops += 1
    }

    // MARK: integration

    mutating func begin(_ simulation: Simulation) {
        truths = simulation.phones.map { simulation.truth.reduction(hiddenDirs: $0.hiddenDirs, now: simulation.unixNow) }
        activeWhenLastTrustworthy = truths.map { $0.activeTotal > 0 }
        truthChangedAt = truths.map { _ in 0 }
        truthVersion = simulation.truth.version
        look(simulation)
    }

    mutating func observe(_ simulation: Simulation) {
        credit(until: simulation.now)
        if simulation.truth.version != truthVersion { refreshTruth(simulation) }
        look(simulation)
    }

    private mutating func refreshTruth(_ simulation: Simulation) {
        truthVersion = simulation.truth.version
        var changed = false
        for phone in simulation.phones {
            let next = simulation.truth.reduction(hiddenDirs: phone.hiddenDirs, now: simulation.unixNow)
            let previous = truths[phone.index]
            if !next.contentState.isSame(as: previous.contentState) || next.isTrustworthy != previous.isTrustworthy {
                changed = true
                truthChangedAt[phone.index] = simulation.now
            }
            if next.isTrustworthy { activeWhenLastTrustworthy[phone.index] = next.activeTotal > 0 }
            timeliness.truthChanged(
                phone: phone.index, from: previous, to: next, shown: phone.visibleCards.map(\.content), at: simulation.now)
            truths[phone.index] = next
        }
        if changed {
            truthChanges += 1
            pendingChanges.append(simulation.now)
        }
    }

    private mutating func look(_ simulation: Simulation) {
        var correct = true
        var multiple = false
        var frozen = false
        var overheight = false
        var untrustworthy = false
        var honest = true
        var lying = false
        var wrongCause: WrongCause?
        var dishonestCause: WrongCause?
        for phone in simulation.phones where phone.isInstalled {
            let truth = truths[phone.index]
            let cards = phone.visibleCards
            let stale = cards.map { $0.isMarkedStale(at: simulation.unixNow) }
            if let population = dismissed[phone.index],
                truth.activeTotal == 0 || !Set(truth.since.keys).isSubset(of: population)
            {
                dismissed[phone.index] = nil
            }
            let wantsNoCard = dismissed[phone.index] != nil
            let cardless = truth.isTrustworthy && truth.activeTotal > 0 && cards.isEmpty && !wantsNoCard
            timeliness.look(phone: phone.index, cardless: cardless, at: simulation.now)
            let phoneHonest = wantsNoCard ? cards.isEmpty || stale.allSatisfy { $0 } : CardCorrectness.isHonest(
                cards: cards.map(\.content), isStale: stale, truth: truth,
                activeWhenLastTrustworthy: activeWhenLastTrustworthy[phone.index])
            honest = honest && phoneHonest
            lying = lying || zip(cards, stale).contains { card, stale in
                CardCorrectness.isLying(card.content, isStale: stale, truth: truth)
            }
            notePushStartedCardsGone(on: phone, visible: Set(cards.map(\.id)), simulation)
            untrustworthy = untrustworthy || !truth.isTrustworthy
            maxVisibleCards = max(maxVisibleCards, cards.count)
            multiple = multiple || cards.count > 1
            let phoneCorrect = wantsNoCard ? cards.isEmpty : CardCorrectness.isCorrect(
                cards: cards.map(\.content), truth: truth,
                activeWhenLastTrustworthy: activeWhenLastTrustworthy[phone.index])
            correct = correct && phoneCorrect
            if wrongCause == nil, !phoneCorrect {
                wrongCause = WrongCause.of(
                    phone, cards: cards, truth: truth, truthChangedAt: truthChangedAt[phone.index], simulation)
            }
            if dishonestCause == nil, !phoneHonest {
                dishonestCause = wrongCause ?? WrongCause.of(
                    phone, cards: cards, truth: truth, truthChangedAt: truthChangedAt[phone.index], simulation)
            }
            for card in cards {
                overheight = overheight || card.content.rows.count > FleetReducer.maxRows
                frozen = frozen || !Self.isAddressable(card, on: phone, simulation)
            }
        }
        if multiple, !hasMultipleCards { simulation.note("several cards visible: " + describe(simulation)) }
        if frozen, !hasFrozenCard { simulation.note("a card is frozen (nobody can address it)") }
        if correct != isCorrect {
            simulation.note(correct ? "lock screens correct" : "lock screens WRONG: " + describe(simulation))
        }
        (isCorrect, hasMultipleCards, hasFrozenCard, hasOverheightCard, isUntrustworthy) =
            (correct, multiple, frozen, overheight, untrustworthy)
        (isHonest, isLying) = (honest, lying)
        (self.wrongCause, self.dishonestCause) = (wrongCause, dishonestCause)
        for phone in simulation.phones {
            deliveryBound.note(
                phone: phone.index, at: simulation.now, truth: truths[phone.index], isOnline: phone.isOnline,
                isInstalled: phone.isInstalled, wasActive: activeWhenLastTrustworthy[phone.index])
        }
        (isOracleCorrect, isOracleHonest) = oracle.look(
            simulation, truths: truths, activeWhenLastTrustworthy: activeWhenLastTrustworthy)
        if correct, !pendingChanges.isEmpty {
            timesToCorrect += pendingChanges.map { simulation.now - $0 }
            pendingChanges.removeAll()
        }
    }

    private mutating func notePushStartedCardsGone(on phone: Phone, visible: Set<ActivityID>, _ simulation: Simulation) {
        for index in pushStartedCards.indices
        where pushStartedCards[index].phone == phone.index && pushStartedCards[index].goneAt == nil
            && !visible.contains(pushStartedCards[index].id)
        {
            pushStartedCards[index].goneAt = simulation.now
        }
    }

    /// Whether anybody can still change `card`: the app while it runs, or a pushing server holding its token
    /// or publishing to the channel it follows.
    static func isAddressable(_ card: FleetActivity, on phone: Phone, _ simulation: Simulation) -> Bool {
        if phone.isRunning { return true }
        if let channel = phone.rig.host.channel(of: card.id) {
            return simulation.apns.channelExists(channel)
                && simulation.servers.contains { $0.publishes(to: channel, of: phone.device, in: simulation) }
        }
        guard let token = phone.rig.host.updateToken(of: card.id) else { return false }
        return simulation.servers.contains { $0.addresses(token.hex, of: phone.device, in: simulation) }
    }

    /// Each phone's cards against its truth, for the trace.
    private func describe(_ simulation: Simulation) -> String {
        func rows(_ state: ContentState) -> String {
            let relative = state.rows.map { "\($0.sid):\($0.state)@\(JSONNumber.text($0.since - Simulation.epoch))" }
            return "[" + relative.joined(separator: " ") + (state.more > 0 ? " +\(state.more)" : "") + "]"
        }
        return simulation.phones.filter(\.isInstalled).map { phone in
            let cards = phone.visibleCards.map { rows($0.content) }.joined(separator: ", ")
            return "\(phone.name) shows {\(cards)} truth \(rows(truths[phone.index].contentState))"
        }.joined(separator: "; ")
    }

    private mutating func credit(until time: Double) {
        let span = time - lastTime
        guard span > 0 else { return }
        if isCorrect { correctSeconds += span }
        if isHonest { honestSeconds += span }
        if isLying { lyingSeconds += span }
        if hasMultipleCards { multiCardSeconds += span }
        if hasFrozenCard { frozenSeconds += span }
        if hasOverheightCard { overheightSeconds += span }
        if isUntrustworthy { untrustworthySeconds += span }
        if isOracleCorrect { oracleCorrectSeconds += span }
        if isOracleHonest { oracleHonestSeconds += span }
        incorrectByCause.add(span, to: wrongCause)
        dishonestByCause.add(span, to: dishonestCause)
        lastTime = time
    }

    // MARK: result

    mutating func finish(_ simulation: Simulation) -> (ScenarioMetrics, ScenarioDetails) {
        credit(until: simulation.duration)
        // A change never corrected counts until the end of the run (a lower bound).
        timesToCorrect += pendingChanges.map { simulation.duration - $0 }
        let sorted = timesToCorrect.sorted()
        let delivery = deliveryBound.fractions(simulation)
        var withToken = 0
        var withoutToken = 0
        for card in pushStartedCards {
            if let registered = card.tokenReachedServerAt, registered - card.appearedAt <= Self.loopWindow {
                withToken += 1
            } else if card.appearedAt + Self.loopWindow <= simulation.duration {
                withoutToken += 1
            }
        }
        let metrics = ScenarioMetrics(
            simulatedSeconds: simulation.duration,
            correctFraction: simulation.duration > 0 ? correctSeconds / simulation.duration : 1,
            timeToCorrectP50: Self.percentile(sorted, 0.50), timeToCorrectP99: Self.percentile(sorted, 0.99),
            multiCardSeconds: multiCardSeconds, maxVisibleCards: maxVisibleCards, frozenSeconds: frozenSeconds,
            starts: starts, clientEnded: clientEnded, startEndLoops: startEndLoops, pushes: pushes,
            honestFraction: simulation.duration > 0 ? honestSeconds / simulation.duration : 1,
            lyingSeconds: lyingSeconds)
        let details = ScenarioDetails(
            serverStarts: serverStarts, truthChanges: truthChanges, overheightSeconds: overheightSeconds,
            pushStartsWithTokenBack: withToken, pushStartsWithoutTokenBack: withoutToken,
            pushStartedCardsKilled: pushStartedCards.filter { card in
                card.goneAt.map { $0 - card.appearedAt <= Self.killWindow } ?? false
            }.count,
            untrustworthySeconds: untrustworthySeconds, timeliness: timeliness.finish(at: simulation.duration),
            bound: BoundFigures(
                oracleCorrectFraction: simulation.duration > 0 ? oracleCorrectSeconds / simulation.duration : 1,
                oracleHonestFraction: simulation.duration > 0 ? oracleHonestSeconds / simulation.duration : 1,
                deliveryBoundCorrectFraction: delivery.correct, deliveryBoundHonestFraction: delivery.honest,
                incorrectSecondsByCause: incorrectByCause, dishonestSecondsByCause: dishonestByCause))
        return (metrics, details)
    }

    /// Nearest-rank percentile of sorted samples; 0 when there are none.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
