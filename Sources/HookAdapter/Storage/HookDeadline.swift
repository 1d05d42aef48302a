/// The hook's hard time bound: every wait and every request is cut to what is left of it.
public struct HookDeadline: Sendable {
    let clock: ContinuousClock
    let end: ContinuousClock.Instant

    /// A deadline `seconds` from now on `clock`.
    public init(seconds: Double, clock: ContinuousClock = ContinuousClock()) {
        self.clock = clock
        end = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
    }

    /// Seconds left (zero once passed).
    public var remainingSeconds: Double {
        let left = clock.now.duration(to: end)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        return max(0, seconds)
    }

    public var hasPassed: Bool { remainingSeconds <= 0 }
}
