import APNs
import FleetCore

/// How long a token waits after APNs refused a push to it for a reason that is not the token's death
/// (429 `TooManyRequests`, 5xx, a transport failure, a provider-token or configuration problem), so the
/// watcher never re-sends to it every tick. A pure rule: the jitter comes from ``jitter(for:failures:)``,
/// a hash of an injected seed, the token and the failure count, so runs are reproducible.
public struct RetryBackoff: Hashable, Sendable {
    /// The first wait, in seconds; it doubles with every failure in a row.
    public var base: Double
    /// The longest wait, in seconds; also the wait for an answer that says our request or credentials are
    /// wrong (no retry can succeed until someone fixes them).
    public var maximum: Double
    /// Spreads the retries of many tokens that failed together (jitter source).
    public var jitterSeed: UInt64

    public init(base: Double = 2, maximum: Double = 300, jitterSeed: UInt64 = 0x5EED) {
        self.base = base
        self.maximum = maximum
        self.jitterSeed = jitterSeed
    }

    /// Seconds to wait after the `failures`-th refusal in a row (1 = the first), given APNs' remedy and a
    /// `retry-after` hint in seconds, if any: exponential with equal jitter, never shorter than the hint.
    public func delay(failures: Int, remedy: PushRemedy?, retryAfter: Double? = nil, jitter: Double) -> Double {
        switch remedy?.outcome {
        case .configurationError: return maximum
        default: break
        }
        let exponential = min(maximum, base * Double(1 << min(max(failures, 1) - 1, 30)))
        let jittered = exponential / 2 + exponential / 2 * min(max(jitter, 0), 1)
        return min(maximum, max(jittered, retryAfter ?? 0))
    }

    /// A number in [0, 1) from the seed, the token and the failure count: the `failures`-th draw of the
    /// token's own ``SplitMix64`` sequence, seeded with the FNV-1a hash of the seed and the token.
    public func jitter(for tokenHex: String, failures: Int) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ jitterSeed
        for byte in tokenHex.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var generator = SplitMix64(seed: hash)
        var draw: UInt64 = 0
        for _ in 0..<max(1, failures) { draw = generator.next() }
        return Double(draw >> 11) / Double(UInt64(1) << 53)
    }
}

/// One token's refusals in a row and when it may be tried again (in memory: a restart tries at once).
public struct TokenBackoff: Hashable, Sendable {
    public var failures: Int
    public var until: UnixTime
}

extension Watcher {
    /// Records one token's answer: an acceptance clears its back-off, a refusal that is not the token's
    /// death extends it.
    func noteAnswer(_ result: TokenResult, in box: inout FleetBox, now: UnixTime) {
        if result.isAccepted || result.isTokenDead {
            box.backoff[result.target] = nil
            return
        }
        let failures = (box.backoff[result.target]?.failures ?? 0) + 1
        let wait = backoff.delay(
            failures: failures, remedy: result.remedy, retryAfter: result.retryAfter,
            jitter: backoff.jitter(for: result.target.hex, failures: failures))
        box.backoff[result.target] = TokenBackoff(failures: failures, until: now + wait)
    }
}

extension FleetBox {
    /// Whether `target` is waiting out a back-off at `now`.
    func isBackingOff(_ target: PushTarget, now: UnixTime) -> Bool { (backoff[target]?.until ?? 0) > now }
}
