/// What the app may do with its card after a reduction.
public enum EndVerdict: Hashable, Sendable {
    /// The count is unknown: leave the card exactly as the server left it (no end, no zeroed update).
    case untouched
    /// Keep the card; update it if its renderable content differs.
    case keep
    /// Nothing has been active for `hold`: end the card now.
    case end
}

/// What the end gate remembers between steps: when a trustworthy zero began.
public struct EndGateState: Hashable, Sendable, Codable {
    public var zeroSince: UnixTime?
    public init(zeroSince: UnixTime? = nil) { self.zeroSince = zeroSince }
}

/// When the app may end the fleet card. Ending is the only irreversible move: the update token dies
/// with the card, and bringing it back needs a push-to-start plus a background wake that often misfires.
///
/// The critical distinction is zero versus unknown. A background launch from a push-to-start has an
/// empty store that reads exactly like zero; ending on it killed the server's card ~2 s after it
/// appeared (guard `end-gate-trust`).
public struct EndGate: Hashable, Sendable {
    /// How long a trustworthy zero must hold before ending, in seconds. 0: end at once (the seed's choice).
    public var hold: Double

    public init(hold: Double = 0) { self.hold = hold }

    /// Advances the gate by one observation and returns the verdict.
    public func step(
        _ state: inout EndGateState, activeTotal: Int, isTrustworthy: Bool, now: UnixTime, guards: GuardSet = .all
    ) -> EndVerdict {
        if !isTrustworthy && guards.isOn(.endGateTrust) {
            return .untouched
        }
        guard activeTotal == 0 else {
            state.zeroSince = nil
            return .keep
        }
        let zeroSince = state.zeroSince ?? now
        state.zeroSince = zeroSince
        return now - zeroSince >= hold ? .end : .keep
    }
}
