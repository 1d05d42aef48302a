/// The hook's hard time bound: every wait and every request is cut to what is left of it.
public struct HookDeadline: Sendable {
    let clock: ContinuousClock
    let end: ContinuousClock.Instant

    /// A deadline `seconds` from now on `clock`, of which `spent` seconds are already gone (a hook
    /// counts from its process's start, so time lost loading under load counts too).
    public init(seconds: Double, spent: Double = 0, clock: ContinuousClock = ContinuousClock()) {
        self.clock = clock
        end = clock.now.advanced(by: .milliseconds(Int64((seconds - max(0, spent)) * 1000)))
    }

    /// Seconds left (zero once passed).
    public var remainingSeconds: Double {
        let left = clock.now.duration(to: end)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        return max(0, seconds)
    }

    public var hasPassed: Bool { remainingSeconds <= 0 }
}
