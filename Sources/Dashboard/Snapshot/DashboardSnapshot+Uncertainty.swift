import ControlPlane
import FleetCore

/// Why the card the server last sent may not be what the phone shows. The panel keeps drawing that
/// card, with these warnings on it, instead of presenting a guess as the phone's screen.
public enum CardUncertainty: String, Encodable, Sendable, Equatable, CaseIterable {
    /// A push-started card whose own update token never came back: updates cannot reach it.
    case startNotAdopted
    /// A push-started card whose updates go to a token registered before it started: an older card's
    /// token, very likely ended, so the new card stays as it was.
    case sendsToEndedCardToken
    /// A session's host is down: the counts drawn are the last known, not the current ones.
    case hostDown

    /// The sentence the panel shows.
    public var text: String {
        switch self {
        case .startNotAdopted:
            "Started, but the phone has not handed back this card's token: updates cannot reach it, so the phone may show less than this."
        case .sendsToEndedCardToken:
            "Updates go to a token from before this card started (an ended card's): the phone may still show the card as it started."
        case .hostDown: "A host is down: these counts are the last known, not necessarily the phone's."
        }
    }

    /// The warnings for one device's card. `updateTokensRegisteredAt`: when each of its update tokens was
    /// registered; `isChannelMode`: the card is reached through a broadcast channel, not tokens.
    public static func of(
        card: LiveActivityState.Card?, isChannelMode: Bool, updateTokensRegisteredAt: [UnixTime], isAnyHostDown: Bool
    ) -> [CardUncertainty] {
        guard let card else { return [] }
        var warnings: [CardUncertainty] = []
        if card.origin == .pushToStart, !isChannelMode, !updateTokensRegisteredAt.contains(where: { $0 >= card.startedAt }) {
            warnings.append(updateTokensRegisteredAt.isEmpty ? .startNotAdopted : .sendsToEndedCardToken)
        }
        if isAnyHostDown { warnings.append(.hostDown) }
        return warnings
    }
}
