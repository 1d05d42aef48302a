import FleetCore
import Testing

@testable import Simulator

/// The delivery bound's sweep over every phone's stretches and pushes: the same fractions as a look at every
/// phone at every boundary, at a cost that grows with the input, not with its square.
@Suite struct DeliveryBoundSweepTests {
    /// A fleet of `phones` phones with `stretches` random stretches and pushes each, over `end` seconds.
    static func fleet(
        seed: UInt64, phones: Int, stretches: Int, end: Double
    ) -> (timelines: [DeliveryBound.Timeline], pushes: [[DeliveryBound.Push]]) {
        var random = SplitMix64(seed: seed)
        func card(_ working: Int) -> ContentState { ContentState(working: working) }
        var timelines: [DeliveryBound.Timeline] = []
        var pushes: [[DeliveryBound.Push]] = []
        for _ in 0..<phones {
            var time = Double.random(in: 0...10, using: &random)
            var segments: [DeliveryBound.Segment] = []
            var sent: [DeliveryBound.Push] = []
            for _ in 0..<stretches {
                let working = Int.random(in: 0...2, using: &random)
                let truth = FleetReduction(
                    contentState: card(working), since: [:], activeTotal: working,
                    isTrustworthy: Int.random(in: 0..<8, using: &random) != 0)
                segments.append(DeliveryBound.Segment(
                    start: time, truth: truth, isOnline: Int.random(in: 0..<4, using: &random) != 0,
                    isInstalled: Int.random(in: 0..<20, using: &random) != 0, wasActive: Bool.random(using: &random)))
                let shown = Int.random(in: 0...2, using: &random)
                let delay = Int.random(in: 0..<10, using: &random) == 0 ? Double.infinity : Double.random(in: 0...30, using: &random)
                sent.append(DeliveryBound.Push(sentAt: time, card: shown == 0 ? nil : card(shown), landsAt: time + delay))
                time += Double.random(in: 0.5...(2 * end / Double(stretches)), using: &random)
            }
            timelines.append(DeliveryBound.Timeline(segments))
            pushes.append(sent)
        }
        return (timelines, pushes)
    }

    /// The bound as it was computed before the sweep: every phone looked up at every boundary.
    static func everyPhoneAtEveryBoundary(
        _ timelines: [DeliveryBound.Timeline], pushes: [[DeliveryBound.Push]], end: Double, staleAfter: Double
    ) -> (correct: Double, honest: Double) {
        func outageStart(_ segments: [DeliveryBound.Segment], _ index: Int) -> Double {
            var first = index
            while first > 0, !segments[first - 1].isOnline { first -= 1 }
            return segments[first].start
        }
        var boundaries = Set([0.0, end])
        for (phone, timeline) in timelines.enumerated() {
            for (index, segment) in timeline.segments.enumerated() {
                boundaries.insert(segment.start)
                if !segment.isOnline { boundaries.insert(outageStart(timeline.segments, index) + staleAfter) }
            }
            for push in pushes[phone] { boundaries.insert(push.landsAt) }
        }
        let times = boundaries.filter { $0 >= 0 && $0 <= end }.sorted()
        var correctSeconds = 0.0
        var honestSeconds = 0.0
        for (from, to) in zip(times, times.dropFirst()) {
            var correct = true
            var honest = true
            for (phone, timeline) in timelines.enumerated() {
                guard let index = timeline.segments.lastIndex(where: { $0.start <= from }) else { continue }
                let segment = timeline.segments[index]
                guard segment.isInstalled else { continue }
                let shown = pushes[phone].filter { $0.landsAt <= from }.max { $0.sentAt < $1.sentAt }?.card
                let cards = shown.map { [$0] } ?? []
                let isStale = !segment.isOnline && from >= outageStart(timeline.segments, index) + staleAfter
                correct = correct && CardCorrectness.isCorrect(
                    cards: cards, truth: segment.truth, activeWhenLastTrustworthy: segment.wasActive)
                honest = honest && CardCorrectness.isHonest(
                    cards: cards, isStale: cards.map { _ in isStale }, truth: segment.truth,
                    activeWhenLastTrustworthy: segment.wasActive)
            }
            if correct { correctSeconds += to - from }
            if honest { honestSeconds += to - from }
        }
        return (correctSeconds / end, honestSeconds / end)
    }

    @Test("The sweep gives exactly the fractions of a look at every phone at every boundary", arguments: 1...20)
    func sameAsEveryPhoneAtEveryBoundary(seed: UInt64) {
        // Few phones so that moments with every card right come often enough to count.
        let (timelines, pushes) = Self.fleet(seed: seed, phones: Int(seed % 3) + 1, stretches: 40, end: 600)
        let swept = DeliveryBound.fractions(timelines, pushes: pushes, end: 600, staleAfter: 45)
        let reference = Self.everyPhoneAtEveryBoundary(timelines, pushes: pushes, end: 600, staleAfter: 45)
        #expect(swept == reference)
    }

    @Test("A push lands at its due time online, and when the phone is back online if it went offline first")
    func landing() {
        let truth = FleetReduction(contentState: ContentState(), since: [:], activeTotal: 0, isTrustworthy: true)
        func stretch(_ start: Double, online: Bool) -> DeliveryBound.Segment {
            DeliveryBound.Segment(start: start, truth: truth, isOnline: online, isInstalled: true, wasActive: false)
        }
        let timeline = DeliveryBound.Timeline([
            stretch(0, online: true), stretch(10, online: true), stretch(20, online: false), stretch(25, online: false),
            stretch(30, online: true), stretch(40, online: false),
        ])
        #expect(timeline.landing(sentAt: 1, due: 15) == 15)
        #expect(timeline.landing(sentAt: 1, due: 22) == 30)
        #expect(timeline.landing(sentAt: 21, due: 23) == 30)
        #expect(timeline.landing(sentAt: 26, due: 35) == 35)
        #expect(timeline.landing(sentAt: 31, due: 45) == .infinity)
        #expect(timeline.landing(sentAt: -1, due: 3) == 3)
    }

    @Test(
        "A long run with many phones is swept in one pass (looking every phone up at every boundary took hours)",
        .timeLimit(.minutes(1)))
    func largeInput() {
        // 500 phones with 200 stretches each: some 250,000 boundaries; the look at every phone at every
        // boundary would make some 10^10 lookups.
        let (timelines, pushes) = Self.fleet(seed: 7, phones: 500, stretches: 200, end: 36_000)
        let swept = DeliveryBound.fractions(timelines, pushes: pushes, end: 36_000, staleAfter: 45)
        #expect(swept.correct >= 0 && swept.correct <= swept.honest && swept.honest <= 1)
    }
}
