import FleetCore

/// The best any product could do in the same world: a server with perfect knowledge of the truth whose
/// every change reaches an online phone at once, in the same outages.
///
/// A phone with no network keeps what it showed when the connection dropped (the truth of that moment);
/// nothing reaches it until it is back. So while it is offline the oracle's card is right only if the truth
/// has not moved since, and honest only if it is right, or stale: the oracle keeps the card's stale date
/// `staleAfter` ahead of every online moment (an endless stream of refreshes), so the card turns stale
/// `staleAfter` after the connection dropped. A session that starts during an outage has no card at all:
/// not honest, for any product. The gap between these fractions and the product's is what the product
/// could still win; the rest of the distance to 1 is the world's.
struct OracleBound {
    private struct PhoneView {
        /// The truth the phone could last be told (its last online moment).
        var shown: FleetReduction
        /// When the phone was first seen offline in the current outage.
        var offlineSince: Double?
    }

    private var views: [Int: PhoneView] = [:]

    /// Whether the oracle's lock screens are correct and honest now.
    mutating func look(
        _ simulation: Simulation, truths: [FleetReduction], activeWhenLastTrustworthy: [Bool]
    ) -> (correct: Bool, honest: Bool) {
        var correct = true
        var honest = true
        for phone in simulation.phones where phone.isInstalled {
            let truth = truths[phone.index]
            guard !phone.isOnline, var view = views[phone.index] else {
                views[phone.index] = PhoneView(shown: truth, offlineSince: nil)
                continue
            }
            let offlineSince = view.offlineSince ?? simulation.now
            view.offlineSince = offlineSince
            views[phone.index] = view
            let cards = view.shown.activeTotal > 0 ? [view.shown.contentState] : []
            let isStale = simulation.now >= offlineSince + simulation.staleAfter
            let wasActive = activeWhenLastTrustworthy[phone.index]
            correct = correct
                && CardCorrectness.isCorrect(cards: cards, truth: truth, activeWhenLastTrustworthy: wasActive)
            honest = honest && CardCorrectness.isHonest(
                cards: cards, isStale: cards.map { _ in isStale }, truth: truth, activeWhenLastTrustworthy: wasActive)
        }
        return (correct, honest)
    }
}
