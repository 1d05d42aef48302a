/// Everything `lfg diagnose` found in one decision log: the `--json` output, and the source of the text output.
public struct DiagnosisReport: Codable, Equatable, Sendable {
    /// Lines read, including skipped ones.
    public var lines: Int
    /// Lines that were decision-log entries.
    public var entries: Int
    /// How many lines were skipped (truncated, garbled, overlong).
    public var skippedCount: Int
    /// The first skipped lines (at most `DecisionLogAnalyzer.maxListedSkips`).
    public var skipped: [SkippedLine]
    /// Unix seconds of the first and last entry, when any.
    public var firstTs: Double?
    public var lastTs: Double?
    /// One diagnosis per device, by device id.
    public var devices: [DeviceDiagnosis]
}

/// A line that was not a decision-log entry.
public struct SkippedLine: Codable, Equatable, Sendable {
    /// 1-based line number.
    public var line: Int
    /// `garbled`, `truncated` (last line without newline that does not parse) or `overlong`.
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// What one device's entries show.
public struct DeviceDiagnosis: Codable, Equatable, Sendable {
    public var deviceId: String
    public var starts: StartSummary
    public var sends: SendSummary
    public var prunedTokens: PrunedTokens
    public var startVetoes: Int
    public var clientEnded: ClientEndedSummary
    public var shortfalls: ShortfallSummary
    /// The longest stretch in which the card may have been frozen (see `FrozenStretch`), when any.
    public var longestFrozen: FrozenStretch?
}

/// Every `decide start`, and whether its own card's `adopted` followed, within the adoption window or late.
public struct StartSummary: Codable, Equatable, Sendable {
    public var total: Int
    public var adopted: Int
    /// Adopted, but after the window: the card could not be reached until then.
    public var adoptedLate: Int
    /// Never adopted (missing): the next start or the end of the log came first.
    public var notAdopted: Int
    public var notDelivered: Int
    public var undetermined: Int
    /// The most recent starts (at most `DeviceTimeline.maxListedStarts`); `omitted` earlier ones are only counted.
    public var listed: [StartRecord]
    public var omitted: Int
}

/// One `decide start` and its fate.
public struct StartRecord: Codable, Equatable, Sendable {
    public enum Outcome: String, Codable, Sendable {
        /// Its card's `adopted` followed within the window: the phone told the server how to reach the new card.
        case adopted
        /// Its card's `adopted` came, but after the window: unreachable until then (the idle-phone gap).
        case adoptedLate = "adopted-late"
        /// Its card was never adopted (missing): its updates went to another card's token. The idle-phone gap.
        case notAdopted = "not-adopted"
        /// No token accepted the start (`none-accepted` / `no-tokens`): no card appeared.
        case notDelivered = "not-delivered"
        /// The log ends before the window closed.
        case undetermined
    }

    /// Which stale-card family a start in this state belongs to, as the seed separates them.
    public enum Family: String, Codable, Sendable {
        /// The card was adopted: if it is stale, look at delivery (shortfalls, dead tokens) or content.
        case deliveryOrContent = "delivery-or-content"
        /// The phone never registered the new card's token: the server cannot reach it.
        case idlePhoneGap = "idle-phone-gap"
        case notDelivered = "not-delivered"
        case undetermined
    }

    public var ts: Double
    public var tokens: Int?
    public var outcome: Outcome
    /// Seconds from the start to its adoption.
    public var adoptedAfterSeconds: Double?

    public var family: Family {
        switch outcome {
        case .adopted: .deliveryOrContent
        case .notAdopted, .adoptedLate: .idlePhoneGap
        case .notDelivered: .notDelivered
        case .undetermined: .undetermined
        }
    }

    enum CodingKeys: String, CodingKey { case ts, tokens, outcome, adoptedAfterSeconds, family }

    public init(ts: Double, tokens: Int?, outcome: Outcome, adoptedAfterSeconds: Double? = nil) {
        self.ts = ts
        self.tokens = tokens
        self.outcome = outcome
        self.adoptedAfterSeconds = adoptedAfterSeconds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ts = try container.decode(Double.self, forKey: .ts)
        tokens = try container.decodeIfPresent(Int.self, forKey: .tokens)
        outcome = try container.decode(Outcome.self, forKey: .outcome)
        adoptedAfterSeconds = try container.decodeIfPresent(Double.self, forKey: .adoptedAfterSeconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ts, forKey: .ts)
        try container.encodeIfPresent(tokens, forKey: .tokens)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(adoptedAfterSeconds, forKey: .adoptedAfterSeconds)
        try container.encode(family, forKey: .family)
    }
}

/// Sends by APNs status and reason.
public struct SendSummary: Codable, Equatable, Sendable {
    public var total: Int
    public var byStatus: [SendCount]
    public var meanMilliseconds: Double?
    public var maxMilliseconds: Double?
}

public struct SendCount: Codable, Equatable, Sendable {
    public var status: Int?
    public var reason: String?
    public var count: Int

    public init(status: Int?, reason: String?, count: Int) {
        self.status = status
        self.reason = reason
        self.count = count
    }
}

public struct PrunedTokens: Codable, Equatable, Sendable {
    public var count: Int
    /// First 8 hex characters of the pruned tokens (at most `DeviceTimeline.maxListedTokens`).
    public var tokens: [String]

    public init(count: Int, tokens: [String]) {
        self.count = count
        self.tokens = tokens
    }
}

public struct ClientEndedSummary: Codable, Equatable, Sendable {
    public var total: Int
    /// The most client-ended events in one clock hour (UTC), and that hour's start.
    public var peakPerHour: Int
    public var peakHour: Double?
    /// Events per clock hour, for every hour with any.
    public var perHour: [HourCount]
}

public struct HourCount: Codable, Equatable, Sendable {
    /// Unix seconds at the start of the hour.
    public var hour: Double
    public var count: Int

    public init(hour: Double, count: Int) {
        self.hour = hour
        self.count = count
    }
}

/// Delivery shortfalls: `partial` and `none-accepted` (the threshold was not met), `no-tokens`.
public struct ShortfallSummary: Codable, Equatable, Sendable {
    public var partial: Int
    public var noneAccepted: Int
    public var noTokens: Int
    /// Runs of consecutive decides that each fell short; a decide that met its threshold ends a run.
    public var runs: Int
    public var longestRun: ShortfallRun?
}

public struct ShortfallRun: Codable, Equatable, Sendable {
    /// How many shortfall lines the run holds.
    public var shortfalls: Int
    public var from: Double
    public var to: Double
    /// True when the log ends inside the run.
    public var isOpen: Bool

    public init(shortfalls: Int, from: Double, to: Double, isOpen: Bool) {
        self.shortfalls = shortfalls
        self.from = from
        self.to = to
        self.isOpen = isOpen
    }
}

/// A stretch in which the visible card may have been frozen: the server believed it was updating a
/// card the phone was not receiving updates for. Two kinds:
/// - `unadopted-start`: from a `decide start` until the server learned how to reach that card
///   (`adopted`) or the card went away (`client-ended`, `decide end`, a new `decide start`). Until the
///   adoption every update goes to an older card's token, which answers 200 and drops it.
/// - `dead-token`: from the first accepted (200) `update`/`end` send to a token until that token was
///   pruned (410 / BadDeviceToken): the token proved dead, so its earlier 200s may have been dropped.
public struct FrozenStretch: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case unadoptedStart = "unadopted-start"
        case deadToken = "dead-token"
    }

    public var kind: Kind
    public var from: Double
    public var to: Double
    public var seconds: Double
    /// What ended it: `adopted`, `client-ended`, `end`, `start`, `token-pruned` or `end-of-log` (still open).
    public var endedBy: String
    /// The token's first 8 hex characters, for `dead-token`.
    public var token: String?

    public init(kind: Kind, from: Double, to: Double, seconds: Double, endedBy: String, token: String? = nil) {
        self.kind = kind
        self.from = from
        self.to = to
        self.seconds = seconds
        self.endedBy = endedBy
        self.token = token
    }
}
