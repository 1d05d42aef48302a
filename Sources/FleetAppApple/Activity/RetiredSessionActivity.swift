#if canImport(ActivityKit)
import ActivityKit
import FleetApp

/// The retired per-session card type, declared only so `Activity<LFGSessionAttributes>.activities`
/// can enumerate the cards an older build left behind, and the tombstone sweep can end them.
/// Its content state is empty and decodes from anything. Delete once no installed build can have one.
extension LFGSessionAttributes: @retroactive ActivityAttributes {}
#endif
