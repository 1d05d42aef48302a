/// The result of one fleet reduction: the card's content and what the next reduction needs.
public struct FleetReduction: Hashable, Sendable {
    /// The card's content, `updatedAt` = the reduction's `now`.
    public var contentState: ContentState
    /// The refreshed `since` baselines for every active session (and, carried over, for every session whose
    /// state is unknown); feed it to the next reduction.
    public var since: SinceMap
    /// Every active session (working + needs input).
    public var activeTotal: Int
    /// False when any session's state is unknown (a host is down): such a count must never end or zero a card.
    public var isTrustworthy: Bool

    public init(contentState: ContentState, since: SinceMap, activeTotal: Int, isTrustworthy: Bool) {
        self.contentState = contentState
        self.since = since
        self.activeTotal = activeTotal
        self.isTrustworthy = isTrustworthy
    }

    public var relevanceScore: Int { contentState.relevanceScore }
    public var accent: Accent { contentState.accent }
}
