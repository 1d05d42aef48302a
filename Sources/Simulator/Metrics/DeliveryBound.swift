import FleetCore

/// The best any product could do in the same world when iOS's delivery rules bind it too: perfect
/// knowledge of the truth and of the future (``OracleBound``), but every push obeys what the world does to
/// pushes.
///
/// Each change of a phone's truth is pushed at the instant it happens, carrying exactly the truth. It
/// reaches the phone after APNs' latency, and, unless it goes at priority 10, after iOS's opportunistic
/// priority-5 delay too (both drawn from the world's ranges, per change). A phone with no network gets
/// the latest push when it is back, at once. iOS applies pushes by their timestamp, so a later push that
/// lands first wins and the older one is ignored. Priority 10 is limited by iOS's budget
/// (``SimulationEnvironment/immediateBudgetPerHour`` per phone and rolling hour), and the bound spends it
/// where it saves most: knowing the future and every delay, it gives priority 10 to the changes whose
/// priority-5 delay would cost the most seconds before the next change. Stale dates as ``OracleBound``.
///
/// Why it is an upper bound: the rolling hour is relaxed to clock hours (any set a rolling budget allows,
/// clock hours allow too), and within each clock hour the largest savings are taken, which is the best
/// choice when each change's wrong seconds are its own (the card is wrong from a change until the push
/// carrying it lands, or the next change). The one way a product could beat it: a card that is right by
/// coincidence while a push is on its way (the truth went back to what the card shows); the bound counts
/// such moments as they fall for its own choice only. Left out, each in the product's favour: drops
/// after APNs' 200, the 8-hour end, the card limit, the channel publish rate, a server's reaction time.
struct DeliveryBound {
    /// One stretch of a phone's world with nothing changing.
    struct Segment {
        var start: Double
        var truth: FleetReduction
        var isOnline: Bool
        var isInstalled: Bool
        var wasActive: Bool
    }

    /// One push the bound sends: the truth's card (nil: no card) from `sentAt`, landing at `landsAt`.
    struct Push {
        var sentAt: Double
        var card: ContentState?
        var landsAt: Double
    }

    private var segments: [[Segment]] = []

    /// Records what `phone` could be shown and whether it can be reached, at `time`.
    mutating func note(
        phone: Int, at time: Double, truth: FleetReduction, isOnline: Bool, isInstalled: Bool, wasActive: Bool
    ) {
        while segments.count <= phone { segments.append([]) }
        let segment = Segment(
            start: time, truth: truth, isOnline: isOnline, isInstalled: isInstalled, wasActive: wasActive)
        guard let last = segments[phone].last else {
            segments[phone].append(segment)
            return
        }
        guard last.isOnline != isOnline || last.isInstalled != isInstalled || last.wasActive != wasActive
            || last.truth.isTrustworthy != truth.isTrustworthy || !last.truth.contentState.isSame(as: truth.contentState)
        else { return }
        if last.start == time {
            segments[phone][segments[phone].count - 1] = segment
        } else {
            segments[phone].append(segment)
        }
    }

    /// The bound's correct and honest fractions over the run.
    func fractions(_ simulation: Simulation) -> (correct: Double, honest: Double) {
        let end = simulation.duration
        guard end > 0 else { return (1, 1) }
        let timelines = segments.map(Timeline.init)
        let pushes = timelines.indices.map { self.pushes(phone: $0, timelines[$0], simulation) }
        return Self.fractions(timelines, pushes: pushes, end: end, staleAfter: simulation.staleAfter)
    }

    /// The bound's pushes for `phone`: one per change of its card, priority 10 where it saves most.
    private func pushes(phone: Int, _ timeline: Timeline, _ simulation: Simulation) -> [Push] {
        var sent: [(time: Double, card: ContentState?)] = []
        for segment in timeline.segments {
            let card = segment.truth.activeTotal > 0 ? segment.truth.contentState : nil
            if let last = sent.last, Self.isSameCard(last.card, card) { continue }
            sent.append((segment.start, card))
        }
        let world = simulation.environment
        var routine: [Double] = []
        var immediate: [Double] = []
        for (index, push) in sent.enumerated() {
            var delays = simulation.draw(.deliveryBound, "\(phone)/\(index)")
            let latency = index == 0 && push.time == 0 ? 0 : delays.uniform(world.apnsLatency)
            let routineDelay = delays.uniform(world.routineDeliveryDelay)
            routine.append(timeline.landing(sentAt: push.time, due: push.time + latency + routineDelay))
            immediate.append(timeline.landing(sentAt: push.time, due: push.time + latency))
        }
        // The seconds priority 10 saves for each change: the card is wrong until its push lands or the next
        // change comes, whichever is first.
        var byHour: [Int: [(saving: Double, index: Int)]] = [:]
        for index in sent.indices {
            let next = index + 1 < sent.count ? sent[index + 1].time : simulation.duration
            let saving = min(routine[index], next) - min(immediate[index], next)
            guard saving > 0 else { continue }
            byHour[Int(sent[index].time / 3600), default: []].append((saving, index))
        }
        var isImmediate = Set<Int>()
        for candidates in byHour.values {
            let best = candidates.sorted { ($0.saving, $1.index) > ($1.saving, $0.index) }
            isImmediate.formUnion(best.prefix(world.immediateBudgetPerHour).map(\.index))
        }
        return sent.indices.map { index in
            Push(
                sentAt: sent[index].time, card: sent[index].card,
                landsAt: isImmediate.contains(index) ? immediate[index] : routine[index])
        }
    }

    private static func isSameCard(_ first: ContentState?, _ second: ContentState?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case (let first?, let second?): first.isSame(as: second)
        default: false
        }
    }
}
