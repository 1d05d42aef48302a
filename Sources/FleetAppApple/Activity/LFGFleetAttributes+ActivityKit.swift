#if canImport(ActivityKit)
import ActivityKit
import FleetCore

/// The fleet card's ActivityKit type. Its name is the `attributes-type` start pushes carry, and its
/// `ContentState` is FleetCore's, whose hand-written lenient decoding lets a newer widget render a card
/// an older build (or server) started.
extension LFGFleetAttributes: @retroactive ActivityAttributes {
    public typealias ContentState = FleetCore.ContentState
}
#endif
