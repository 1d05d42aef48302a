/// The figures of one scenario run: exactly the keys of contract section 3.2, in its order.
///
/// Counts are summed over the scenario's devices; fractions and seconds are over its simulated time,
/// and a moment counts as correct only when every device's visible cards are correct.
public struct ScenarioMetrics: Hashable, Sendable {
    public var simulatedSeconds: Double
    /// Fraction of time every phone's visible card(s) equal the truth (see ``CardCorrectness``).
    public var correctFraction: Double
    /// Seconds from a change of the truth to the first moment every card is correct again.
    public var timeToCorrectP50: Double
    public var timeToCorrectP99: Double
    /// Seconds with more than one card visible on some phone.
    public var multiCardSeconds: Double
    public var maxVisibleCards: Int
    /// Seconds with a card visible that nobody can address any more: the app is not running and no
    /// pushing server holds its update token. It still counts up its elapsed labels convincingly.
    public var frozenSeconds: Double
    /// Cards that appeared (created by the app or push-started).
    public var starts: Int
    /// `/ended` reports: the app ended its card itself.
    public var clientEnded: Int
    /// `/ended` reports against sessions the server still counts active, within 90 s of a push-start:
    /// phone ends card, server push-starts a replacement, phone ends that one too (the seed's loop).
    public var startEndLoops: Int
    /// APNs requests sent by every server.
    public var pushes: Int
    /// Fraction of time every visible card is correct, or marked stale by iOS, or absent while nothing is
    /// active (contract 8.1).
    public var honestFraction: Double
    /// Seconds some visible card shows wrong content without a stale mark (contract 8.1).
    public var lyingSeconds: Double

    /// The metric keys in contract order, with their values as JSON numbers.
    public var jsonFields: [(key: String, value: String)] {
        [
            ("simulatedSeconds", JSONNumber.text(simulatedSeconds)),
            ("correctFraction", JSONNumber.text(correctFraction)),
            ("timeToCorrectP50", JSONNumber.text(timeToCorrectP50)),
            ("timeToCorrectP99", JSONNumber.text(timeToCorrectP99)),
            ("multiCardSeconds", JSONNumber.text(multiCardSeconds)),
            ("maxVisibleCards", String(maxVisibleCards)),
            ("frozenSeconds", JSONNumber.text(frozenSeconds)),
            ("starts", String(starts)),
            ("clientEnded", String(clientEnded)),
            ("startEndLoops", String(startEndLoops)),
            ("pushes", String(pushes)),
            ("honestFraction", JSONNumber.text(honestFraction)),
            ("lyingSeconds", JSONNumber.text(lyingSeconds)),
        ]
    }
}

/// Figures the human report adds beyond the contract's keys (the JSON keeps exactly the contract's).
public struct ScenarioDetails: Hashable, Sendable {
    /// Starts the servers delivered (at least one push-to-start token accepted).
    public var serverStarts: Int
    /// Renderable changes of the truth (what every push is ultimately for).
    public var truthChanges: Int
    /// Seconds with a card taller than the lock screen's three rows (its header centre-clipped).
    public var overheightSeconds: Double
    /// Push-started cards whose update token reached the canonical server within 90 s, and those whose did not.
    public var pushStartsWithTokenBack: Int
    public var pushStartsWithoutTokenBack: Int
    /// Push-started cards gone from the screen within 30 s of appearing: killed, not finished with.
    public var pushStartedCardsKilled: Int
    /// Seconds in which the truth was untrustworthy (a host down): judged by the lenient rule.
    public var untrustworthySeconds: Double
    /// Needs-you delays, priority-10 pushes per hour, checkpoints, cardless stretches.
    public var timeliness: Timeliness
    /// The oracle bound and the wrong seconds by cause.
    public var bound: BoundFigures
}

/// What no product could beat in the same world, and where the product's wrong seconds went.
public struct BoundFigures: Hashable, Sendable {
    /// Correct fraction of a server with perfect knowledge whose changes reach an online phone at once.
    public var oracleCorrectFraction: Double
    /// Honest fraction of that server, keeping the stale date `LFG_STALE_AFTER_S` ahead of every online moment.
    public var oracleHonestFraction: Double
    /// Correct fraction of that server when its pushes obey the world's delivery rules too: APNs' latency,
    /// priority-5 delay, iOS's priority-10 budget spent where it saves most (``DeliveryBound``).
    public var deliveryBoundCorrectFraction: Double
    /// Honest fraction of the same.
    public var deliveryBoundHonestFraction: Double
    var incorrectSecondsByCause: WrongSeconds
    var dishonestSecondsByCause: WrongSeconds

    /// Seconds not correct (not honest) per cause, keyed by the cause's name.
    public var incorrectByCause: [String: Double] { incorrectSecondsByCause.seconds }
    public var dishonestByCause: [String: Double] { dishonestSecondsByCause.seconds }

    /// The JSON extension keys (after the timeliness ones), in this order.
    public var jsonFields: [(key: String, value: String)] {
        [
            ("oracleCorrectFraction", JSONNumber.text(oracleCorrectFraction)),
            ("oracleHonestFraction", JSONNumber.text(oracleHonestFraction)),
            ("incorrectSecondsByCause", incorrectSecondsByCause.json),
            ("dishonestSecondsByCause", dishonestSecondsByCause.json),
            ("deliveryBoundCorrectFraction", JSONNumber.text(deliveryBoundCorrectFraction)),
            ("deliveryBoundHonestFraction", JSONNumber.text(deliveryBoundHonestFraction)),
        ]
    }
}

/// Formats doubles for JSON: rounded to milliseconds, so output is short and identical run to run.
enum JSONNumber {
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
