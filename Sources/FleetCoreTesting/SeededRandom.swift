import FleetCore

/// The seeded generator for tests that draw random fleets or event streams, so every run draws the same ones
/// (a failure names its seed and reproduces): FleetCore's one SplitMix64, under the name tests use.
public typealias SeededRandom = SplitMix64
