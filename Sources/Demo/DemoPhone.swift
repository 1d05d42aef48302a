/// The demo's phone: what it does when the APNs stand-in delivers a push to one of its tokens.
///
/// A push-to-start makes a card; after the cycle's adoption delay the app registers that card's
/// update token (the server then adopts it and updates it). An `end` removes the card. The person
/// can swipe the card away, which the app reports as `/ended`. Pure: events in, effects out.
public struct DemoPhone: Equatable, Sendable {
    public static let deviceId = "demo-iphone"
    public static let env = "sandbox"

    public enum Event: Equatable, Sendable {
        /// A Live Activity push reached `token` with `aps.event` (`start`, `update`, `end`).
        case pushed(token: String, event: String)
        /// The person swiped the card away.
        case personEndedCard
    }

    public enum Effect: Equatable, Sendable {
        /// Register `token` as the card's update token after `delay` seconds.
        case registerUpdateToken(String, afterSeconds: Double)
        /// Report the card ended (`POST /api/push/live-activity/ended`).
        case reportEnded
    }

    /// The install's push-to-start token.
    public let pushToStartToken: String
    /// Whether a card is on the Lock Screen.
    public private(set) var hasCard = false
    /// The live card's update token, once minted.
    public private(set) var updateToken: String?

    public init(pushToStartToken: String) { self.pushToStartToken = pushToStartToken }

    /// Handles one event; `mintToken` makes a new update token and `adoptionDelay` says how long the
    /// app takes to register it.
    public mutating func handle(_ event: Event, adoptionDelay: Double, mintToken: () -> String) -> [Effect] {
        switch event {
        case .pushed(let token, "start") where token == pushToStartToken:
            hasCard = true
            let minted = mintToken()
            updateToken = minted
            return [.registerUpdateToken(minted, afterSeconds: adoptionDelay)]
        case .pushed(let token, "end") where token == updateToken:
            hasCard = false
            updateToken = nil
            return []
        case .personEndedCard:
            guard hasCard else { return [] }
            hasCard = false
            updateToken = nil
            return [.reportEnded]
        default:
            return []
        }
    }
}
