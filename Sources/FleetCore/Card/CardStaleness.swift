/// The card's `stale-date` rule, one source for the server (`LFG_STALE_AFTER_S`, CardPolicy) and the app
/// (its own requests and updates): every start and update says when the card stops being current, and a
/// steady card is re-sent before then, so only a card nobody can reach turns stale (guard `stale-date`).
///
/// Why short: the stale date is the one promise that still holds when nothing reaches the phone (no
/// network, a push dropped after APNs' 200, a card whose token never came back). The card lies at most
/// until it; the refreshes that keep a correct card from turning stale cost one priority-5 push every
/// two thirds of it. The simulator's curve (README, bench/simulate-figures.sh) chose the value.
public enum CardStaleness {
    /// Seconds from a start or update to its `stale-date` (`LFG_STALE_AFTER_S` default).
    public static let defaultStaleAfterSeconds: Double = 120

    /// A card whose stale date is this close is refreshed (same content, a new stale date): a third of
    /// `staleAfter`, so two refreshes can be lost or delayed by iOS's opportunistic delivery first.
    public static func refreshLead(staleAfter: Double) -> Double { staleAfter / 3 }

    /// Whether a card with stale date `staleDate` is due for a refresh at `now`. One with none is not: it
    /// was written by a writer that gives none (a stale date is only ever moved, never introduced, so the
    /// app does not rewrite a card it did not write just to date it).
    public static func isRefreshDue(staleDate: UnixTime?, staleAfter: Double, now: UnixTime) -> Bool {
        guard let staleDate else { return false }
        return now >= staleDate - refreshLead(staleAfter: staleAfter)
    }
}
