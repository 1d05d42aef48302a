import ControlPlane
import FleetCore

/// The figures of contract 8.1's long scenarios: how fast a needs-you moment reaches the wire, how many
/// priority-10 pushes a phone gets per hour, whether the card is right at fixed hours, and the longest
/// stretch with no card while a session is active.
struct TimelinessRecorder {
    /// Needs-you transitions not yet on the wire: (phone, sid) -> when the session started waiting.
    private var waiting: [String: Double] = [:]
    private var needsYouDelays: [Double] = []
    /// Priority-10 pushes sent to each phone, by simulated second.
    private var immediateSends: [Int: [Double]] = [:]
    private(set) var checkpoints: [(hour: Int, correct: Bool)] = []
    private var cardlessSince: [Int: Double] = [:]
    private var longestCardless = 0.0

    /// A needs-you moment must be on the wire within this many seconds (contract 8.1, issue 11).
    static let needsYouLimit = 1.0

    /// The content of the last push sent for each phone (what the wire says the card shows next).
    private var lastPushed: [Int: ContentState] = [:]

    /// The truth of `phone` changed from `previous` to `next`; `shown` are the cards on its lock screen.
    ///
    /// A session that turns needs-input while the card already shows it as needs-input (on the screen, or in
    /// the last push on the wire) needs no push: the person already sees it waiting. That happens when an
    /// agent flaps: its brief "working" was a routine change held by the coalescing interval, so the card
    /// never left needs-input. Such a transition is on time (delay 0).
    mutating func truthChanged(
        phone: Int, from previous: FleetReduction, to next: FleetReduction, shown: [ContentState], at now: Double
    ) {
        let before = Self.waitingSids(previous.contentState)
        let after = Self.waitingSids(next.contentState)
        var alreadyShown = shown.reduce(into: Set<SessionID>()) { $0.formUnion(Self.waitingSids($1)) }
        if let wire = lastPushed[phone] { alreadyShown.formUnion(Self.waitingSids(wire)) }
        for sid in after.subtracting(before) {
            if alreadyShown.contains(sid) {
                needsYouDelays.append(0)
            } else {
                waiting["\(phone)/\(sid)"] = now
            }
        }
        // Answered before any push carried it: it never reached the wire, so it was as late as it lasted.
        for sid in before.subtracting(after) {
            if let since = waiting.removeValue(forKey: "\(phone)/\(sid)") { needsYouDelays.append(now - since) }
        }
    }

    /// A push left a server for `phone` carrying `content` at `priority`.
    mutating func pushSent(phone: Int, content: ContentState, priority: Int, at now: Double) {
        if priority == 10 { immediateSends[phone, default: []].append(now) }
        lastPushed[phone] = content
        for sid in Self.waitingSids(content) {
            if let since = waiting.removeValue(forKey: "\(phone)/\(sid)") { needsYouDelays.append(now - since) }
        }
    }

    /// Whether the lock screens are right at hour `hour` of the run.
    mutating func checkpoint(hour: Int, correct: Bool) { checkpoints.append((hour, correct)) }

    /// Called on every look: `cardless` says whether `phone` shows no card while a session is active.
    mutating func look(phone: Int, cardless: Bool, at now: Double) {
        if cardless {
            cardlessSince[phone] = cardlessSince[phone] ?? now
        } else if let since = cardlessSince.removeValue(forKey: phone) {
            // The stretch lasted until this look, when a card was there again.
            longestCardless = max(longestCardless, now - since)
        }
    }

    /// The figures at the end of the run.
    func finish(at end: Double) -> Timeliness {
        var longest = longestCardless
        for since in cardlessSince.values { longest = max(longest, end - since) }
        let open = waiting.values.map { end - $0 }
        let delays = needsYouDelays + open
        var worstHour = 0
        for sends in immediateSends.values {
            var first = 0
            for (index, time) in sends.enumerated() {
                while sends[first] <= time - 3600 { first += 1 }
                worstHour = max(worstHour, index - first + 1)
            }
        }
        return Timeliness(
            needsYouTransitions: delays.count, needsYouLate: delays.filter { $0 > Self.needsYouLimit }.count,
            needsYouWorstSeconds: delays.max() ?? 0, immediatePushesWorstHour: worstHour,
            checkpoints: checkpoints.map { "\($0.hour)h:\($0.correct ? "correct" : "WRONG")" },
            longestCardlessActiveSeconds: longest)
    }

    private static func waitingSids(_ content: ContentState) -> Set<SessionID> {
        Set(content.rows.filter { $0.state == .needsInput }.map(\.sid))
    }
}

/// What ``TimelinessRecorder`` measured.
public struct Timeliness: Hashable, Sendable {
    /// Needs-you transitions of the truth (a session newly waiting on the person).
    public var needsYouTransitions: Int
    /// Of those, how many reached the wire later than 1 s after they happened (or never did).
    public var needsYouLate: Int
    /// The slowest one, in seconds.
    public var needsYouWorstSeconds: Double
    /// The most priority-10 pushes one phone got in any rolling hour.
    public var immediatePushesWorstHour: Int
    /// Whether the lock screens were right at the scenario's checkpoint hours ("9h:correct").
    public var checkpoints: [String]
    /// The longest stretch with no card on a phone while a session was active for it.
    public var longestCardlessActiveSeconds: Double

    /// The JSON extension keys (after the contract's), in this order.
    public var jsonFields: [(key: String, value: String)] {
        [
            ("needsYouTransitions", String(needsYouTransitions)), ("needsYouLate", String(needsYouLate)),
            ("needsYouWorstSeconds", JSONNumber.text(needsYouWorstSeconds)),
            ("priority10WorstHour", String(immediatePushesWorstHour)),
            ("longestCardlessActiveSeconds", JSONNumber.text(longestCardlessActiveSeconds)),
            ("checkpoints", "[" + checkpoints.map { "\"\($0)\"" }.joined(separator: ",") + "]"),
        ]
    }
}
