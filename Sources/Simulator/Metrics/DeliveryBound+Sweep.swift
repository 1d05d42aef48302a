import FleetCore

extension DeliveryBound {
    /// One phone's stretches, with what finding a time's stretch and an outage's start needs precomputed, so
    /// the bound costs O(n log n) in its stretches and pushes (it used to look every phone up at every
    /// boundary of every phone: quadratic, hours for a long run with many phones).
    struct Timeline {
        let segments: [Segment]
        /// For each stretch, when the outage holding it began (meaningful for stretches offline).
        let outageStarts: [Double]
        /// For each stretch, the first stretch online at or after it (`segments.count`: none).
        let nextOnline: [Int]
        /// For each stretch, the first stretch offline at or after it (`segments.count`: none).
        let nextOffline: [Int]

        /// - Parameter segments: in time order, each starting after the one before.
        init(_ segments: [Segment]) {
            self.segments = segments
            var outageStarts: [Double] = []
            for (index, segment) in segments.enumerated() {
                let continuesOutage = index > 0 && !segments[index - 1].isOnline
                outageStarts.append(continuesOutage ? outageStarts[index - 1] : segment.start)
            }
            var nextOnline = [Int](repeating: segments.count, count: segments.count)
            var nextOffline = nextOnline
            for index in segments.indices.reversed() {
                let following = index + 1 < segments.count
                nextOnline[index] = segments[index].isOnline ? index : (following ? nextOnline[index + 1] : segments.count)
                nextOffline[index] = !segments[index].isOnline ? index : (following ? nextOffline[index + 1] : segments.count)
            }
            self.outageStarts = outageStarts
            self.nextOnline = nextOnline
            self.nextOffline = nextOffline
        }

        /// The stretch holding `time` (the last one starting at or before it); nil before the first.
        func segmentIndex(at time: Double) -> Int? {
            let index = segments.partitioningIndex { $0.start > time } - 1
            return index >= 0 ? index : nil
        }

        /// When a push sent at `time` and due to land at `due` lands: at `due` if the phone stays online until
        /// then, else when it is next back online (APNs hands over what it stored at once).
        func landing(sentAt time: Double, due: Double) -> Double {
            guard let first = segmentIndex(at: time) else { return due }
            let last = max(first, segmentIndex(at: due) ?? first)
            let offline = nextOffline[first]
            guard offline <= last else { return due }
            let back = nextOnline[offline]
            return back < segments.count ? max(segments[back].start, due) : .infinity
        }
    }

    /// The fractions of `[0, end]` during which every phone's card is correct, and honest, given each phone's
    /// stretches and the pushes the bound sends it.
    ///
    /// A phone's verdict moves only at its own boundaries (a stretch starts, a push lands, an outage turns the
    /// card stale), so the sweep looks a phone up again only there and keeps the count of phones wrong and
    /// dishonest; the seconds are summed over the same intervals, in the same order, as a look at every phone
    /// at every boundary would.
    static func fractions(
        _ timelines: [Timeline], pushes: [[Push]], end: Double, staleAfter: Double
    ) -> (correct: Double, honest: Double) {
        var boundaries = Set([0.0, end])
        var moves: [(time: Double, phone: Int)] = []
        for (phone, timeline) in timelines.enumerated() {
            for (index, segment) in timeline.segments.enumerated() {
                moves.append((segment.start, phone))
                if !segment.isOnline { moves.append((timeline.outageStarts[index] + staleAfter, phone)) }
            }
            for push in pushes[phone] { moves.append((push.landsAt, phone)) }
        }
        for move in moves { boundaries.insert(move.time) }
        moves.sort { $0.time < $1.time }
        let times = boundaries.filter { $0 >= 0 && $0 <= end }.sorted()
        var looks = timelines.indices.map { PhoneLook(timeline: timelines[$0], pushes: pushes[$0]) }
        var wrongPhones = 0
        var dishonestPhones = 0
        var nextMove = 0
        var moved: [Int] = []
        var correctSeconds = 0.0
        var honestSeconds = 0.0
        for (from, to) in zip(times, times.dropFirst()) {
            while nextMove < moves.count, moves[nextMove].time <= from {
                moved.append(moves[nextMove].phone)
                nextMove += 1
            }
            for phone in moved where looks[phone].lookedAt != from {
                let (wasCorrect, wasHonest) = (looks[phone].isCorrect, looks[phone].isHonest)
                looks[phone].look(at: from, staleAfter: staleAfter)
                wrongPhones += (wasCorrect ? 0 : -1) + (looks[phone].isCorrect ? 0 : 1)
                dishonestPhones += (wasHonest ? 0 : -1) + (looks[phone].isHonest ? 0 : 1)
            }
            moved.removeAll(keepingCapacity: true)
            if wrongPhones == 0 { correctSeconds += to - from }
            if dishonestPhones == 0 { honestSeconds += to - from }
        }
        return (correctSeconds / end, honestSeconds / end)
    }

    /// One phone's verdict as of the last boundary it moved at, and where its stretches and landed pushes stand.
    private struct PhoneLook {
        let timeline: Timeline
        let pushes: [Push]
        /// The pushes' indices in landing order (pushes are in sending order).
        let landingOrder: [Int]
        var segment: Int?
        var landed = 0
        /// The latest push sent among those landed.
        var shown: Int?
        var lookedAt: Double?
        /// A phone with no stretch yet, or not installed, is neither wrong nor dishonest.
        var isCorrect = true
        var isHonest = true

        init(timeline: Timeline, pushes: [Push]) {
            self.timeline = timeline
            self.pushes = pushes
            landingOrder = pushes.indices.sorted { pushes[$0].landsAt < pushes[$1].landsAt }
        }

        /// The verdict at `time` (never earlier than the last look).
        mutating func look(at time: Double, staleAfter: Double) {
            lookedAt = time
            let segments = timeline.segments
            var index = segment ?? -1
            while index + 1 < segments.count, segments[index + 1].start <= time { index += 1 }
            segment = index >= 0 ? index : nil
            while landed < landingOrder.count, pushes[landingOrder[landed]].landsAt <= time {
                shown = max(shown ?? -1, landingOrder[landed])
                landed += 1
            }
            guard index >= 0, segments[index].isInstalled else {
                (isCorrect, isHonest) = (true, true)
                return
            }
            let stretch = segments[index]
            let cards = (shown.flatMap { pushes[$0].card }).map { [$0] } ?? []
            let isStale = !stretch.isOnline && time >= timeline.outageStarts[index] + staleAfter
            isCorrect = CardCorrectness.isCorrect(
                cards: cards, truth: stretch.truth, activeWhenLastTrustworthy: stretch.wasActive)
            isHonest = CardCorrectness.isHonest(
                cards: cards, isStale: cards.map { _ in isStale }, truth: stretch.truth,
                activeWhenLastTrustworthy: stretch.wasActive)
        }
    }
}
