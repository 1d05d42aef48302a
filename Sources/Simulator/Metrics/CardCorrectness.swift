import FleetCore

/// When a phone's lock screen counts as showing the truth.
///
/// - Nothing active (trustworthy): no card at all. A zeroed card left on screen is wrong.
/// - Something active: exactly one card whose renderable content equals the truth's reduction:
///   counts, `more`, and each row's sid, title and state; each row's `since` within
///   ``sinceTolerance`` (the two writers stamp `since` at their own tick or sync, seconds apart, and the
///   label shows whole minutes).
/// - Untrustworthy (a host is down, the count is unknown): at most one card, and a card present if one
///   was due at the last trustworthy moment. Leaving the card as it was is right; ending it is not.
enum CardCorrectness {
    /// How far a row's `since` may be from the exact instant of the state change, in seconds.
    static let sinceTolerance: Double = 60

    static func isCorrect(cards: [ContentState], truth: FleetReduction, activeWhenLastTrustworthy: Bool) -> Bool {
        guard truth.isTrustworthy else {
            return cards.count <= 1 && (!activeWhenLastTrustworthy || cards.count == 1)
        }
        guard truth.activeTotal > 0 else { return cards.isEmpty }
        guard cards.count == 1, let card = cards.first else { return false }
        return matches(card, truth.contentState)
    }

    /// Honest (contract 8.1): every visible card is correct or marked stale by iOS, or there is no card
    /// while nothing is active. A missing card while something is active is not honest; while the count
    /// is unknown (a host down) the lenient rule of ``isCorrect`` applies, and stale cards are honest too.
    static func isHonest(
        cards: [ContentState], isStale: [Bool], truth: FleetReduction, activeWhenLastTrustworthy: Bool
    ) -> Bool {
        if isCorrect(cards: cards, truth: truth, activeWhenLastTrustworthy: activeWhenLastTrustworthy) { return true }
        guard !cards.isEmpty else { return false }
        guard truth.isTrustworthy else { return isStale.allSatisfy { $0 } }
        return zip(cards, isStale).allSatisfy { card, stale in stale || matches(card, truth.contentState) }
    }

    /// Whether one visible card lies: it shows content that is not the truth and iOS has not marked it
    /// stale. While the count is unknown nothing is judged a lie.
    static func isLying(_ card: ContentState, isStale: Bool, truth: FleetReduction) -> Bool {
        truth.isTrustworthy && !isStale && !matches(card, truth.contentState)
    }

    /// Whether `card` equals `truth` in everything but the rows' `since`.
    static func matchesIgnoringSince(_ card: ContentState, _ truth: ContentState) -> Bool {
        card.working == truth.working && card.needsInput == truth.needsInput && card.more == truth.more
            && card.rows.map(\.sid) == truth.rows.map(\.sid) && card.rows.map(\.state) == truth.rows.map(\.state)
            && card.rows.map(\.title) == truth.rows.map(\.title)
    }

    static func matches(_ card: ContentState, _ truth: ContentState) -> Bool {
        guard card.working == truth.working, card.needsInput == truth.needsInput, card.more == truth.more,
            card.rows.count == truth.rows.count
        else { return false }
        return zip(card.rows, truth.rows).allSatisfy { shown, due in
            shown.sid == due.sid && shown.title == due.title && shown.state == due.state
                && abs(shown.since - due.since) < sinceTolerance
        }
    }
}
