/// A seeded random generator (SplitMix64): one seed gives one sequence on every platform. The simulator draws
/// all its chance from it (so one seed gives one trace), and tests that draw random fleets or event streams
/// use it too (a failure names its seed and reproduces). One generator, defined here once.
///
/// Small, fast and good enough for workloads; not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
