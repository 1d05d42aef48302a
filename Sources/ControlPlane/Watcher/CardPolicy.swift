import FleetCore

/// The rules of the server's card: staleness, the 8-hour renewal, token ageing, the priority budget,
/// how often a failing channel is retried, and whether a device that did not say is private. Every threshold is defined here once; the watcher, the
/// configuration (`LFG_STALE_AFTER_S`) and the simulator read them from here.
public struct CardPolicy: Hashable, Sendable {
    /// `stale-date` = push time + this (`LFG_STALE_AFTER_S`); the default and its reason live in
    /// ``CardStaleness`` (the app uses the same rule for its own updates).
    public static let defaultStaleAfterSeconds: Double = CardStaleness.defaultStaleAfterSeconds

    /// iOS ends a card this long after it started (reference 4.7).
    public static let cardLifetimeSeconds: Double = 8 * 3600

    public var staleAfter: Double
    /// A card whose stale date is this close is re-pushed (priority 5, same content) so a steady,
    /// correct card never turns stale: a third of `staleAfter`, so two refreshes can be lost or delayed
    /// by iOS's opportunistic priority-5 delivery before the card reads stale.
    public var staleRefreshLead: Double
    /// A card this old is renewed while sessions stay active: 30 minutes before iOS ends it, room for a
    /// channel to be made and a start to be retried several times.
    public var renewAfter: Double
    /// An update token never refreshed for this long is forgotten: 8 hours a card can live plus 4 on the
    /// Lock Screen after it ends (seed 003). Push-to-start tokens never age: an idle phone mints no new
    /// one, and it is the only way to reach it.
    public var updateTokenMaxAge: Double
    /// The priority rule and the coalescing of routine updates.
    public var budget: PushBudget
    /// Consecutive failures to create a device's channel after which it falls back to token mode.
    public var channelAttempts: Int
    /// The first wait before a failed channel creation is retried; doubled after each failure.
    public var channelRetryDelay: Double
    /// `LFG_PRIVACY=1`: devices that did not say (`"privacy"` on their `PUT`) are private (contract 8.3).
    public var privacyByDefault: Bool
    /// When a busy session that sent nothing reads as "no news" (`LFG_NO_NEWS_AFTER_S`, guard `no-news`).
    public var silence: SilenceRule = .standard

    public init(
        staleAfter: Double = CardPolicy.defaultStaleAfterSeconds, staleRefreshLead: Double? = nil,
        renewAfter: Double = CardPolicy.cardLifetimeSeconds - 30 * 60, updateTokenMaxAge: Double = 12 * 3600,
        budget: PushBudget = PushBudget(), channelAttempts: Int = 3, channelRetryDelay: Double = 30,
        privacyByDefault: Bool = false
    ) {
        self.privacyByDefault = privacyByDefault
        self.staleAfter = staleAfter
        self.staleRefreshLead = staleRefreshLead ?? CardStaleness.refreshLead(staleAfter: staleAfter)
        self.renewAfter = renewAfter
        self.updateTokenMaxAge = updateTokenMaxAge
        self.budget = budget
        self.channelAttempts = channelAttempts
        self.channelRetryDelay = channelRetryDelay
    }

    /// The `stale-date` of a start or update decided at `now`.
    public func staleDate(pushedAt now: UnixTime) -> UnixTime { now + staleAfter }
}
