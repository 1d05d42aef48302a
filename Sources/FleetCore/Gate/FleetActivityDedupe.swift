/// A fleet card as dedupe sees it: ActivityKit exposes no creation time, only the id and the content.
public struct DedupeCandidate: Hashable, Sendable {
    public var id: String
    public var updatedAt: UnixTime

    public init(id: String, updatedAt: UnixTime) {
        self.id = id
        self.updatedAt = updatedAt
    }
}

/// The one-card rule: when more than one fleet card exists, which one survives.
///
/// Neither writer can see the other's cards, so this runs on the phone on every `activityUpdates`
/// arrival. Without it two cards sit on the lock screen and only the newest is addressable, so the
/// visible one is the stale one (guard `dedupe`).
public enum FleetActivityDedupe {
    /// The survivor (newest `updatedAt`: the card both writers most recently addressed; ties go to the
    /// larger id, since the order of `Activity.activities` is not stable) and the cards to end.
    public static func partition(_ cards: [DedupeCandidate]) -> (survivor: DedupeCandidate?, losers: [DedupeCandidate]) {
        guard let survivor = cards.max(by: isOlder) else { return (nil, []) }
        let losers = cards.filter { $0.id != survivor.id }.sorted(by: isOlder)
        return (survivor, losers)
    }

    static func isOlder(_ lhs: DedupeCandidate, _ rhs: DedupeCandidate) -> Bool {
        if lhs.updatedAt != rhs.updatedAt { return lhs.updatedAt < rhs.updatedAt }
        return lhs.id < rhs.id
    }
}
