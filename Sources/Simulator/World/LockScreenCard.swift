import FleetCore

/// One fleet card on a phone's lock screen, as ActivityKit holds it.
final class LockScreenCard {
    enum Origin: String { case app, pushToStart }

    let id: Int
    let origin: Origin
    /// The card's update token: minted by ActivityKit at creation, handed to the app via `pushTokenUpdates`.
    let updateToken: String
    let appearedAt: Double
    var content: ContentState
    /// The newest timestamp applied (local update or push); older pushes are ignored.
    var lastTimestamp: UnixTime
    /// When ActivityKit has the token ready for the app (creation + mint delay).
    var tokenReadyAt: Double
    /// When a server first held this card's update token (for "token back within 90 s").
    var tokenRegisteredAt: Double?

    init(id: Int, origin: Origin, updateToken: String, content: ContentState, at time: Double, tokenReadyAt: Double) {
        self.id = id
        self.origin = origin
        self.updateToken = updateToken
        self.appearedAt = time
        self.content = content
        self.lastTimestamp = content.updatedAt
        self.tokenReadyAt = tokenReadyAt
    }
}
