import FleetCore

/// The app's diagnostics page, as values: which tokens the server has, how the card is pushed, when the
/// last push was seen. Tokens and channel ids appear shortened only.
public struct DiagnosticsReport: Hashable, Sendable {
    /// One token a server accepted.
    public struct TokenLine: Hashable, Sendable {
        public var server: String
        /// "Push-to-start" or "Card update".
        public var kind: String
        /// The token's first characters and "…".
        public var token: String
    }

    public var deviceID: String
    public var tokens: [TokenLine]
    /// "Channel" (iOS 18 broadcast), "Token", or "Not asked yet".
    public var mode: String
    /// The device's broadcast channel, shortened, in channel mode.
    public var channel: String?
    /// The live card's content time (`updatedAt`), whoever wrote it last: the app, or a push from the server.
    public var cardUpdatedAt: UnixTime?
    /// How many live cards iOS reports (more than one is a bug the dedupe should be ending).
    public var liveCards: Int
    /// When the app last saw a notification arrive (an alert or a question), if ever.
    public var lastNotificationAt: UnixTime?
    /// Servers still owed an `/ended` report.
    public var endedReportsOwed: [String]
    public var connection: ConnectionStatus

    /// The report for `engine` now.
    public static func make(
        engine: FleetAppEngine, cards: [FleetActivity], connection: ConnectionStatus, lastNotificationAt: UnixTime?
    ) -> DiagnosticsReport {
        let tokens = engine.manager.sent.entries.map { entry in
            TokenLine(
                server: entry.slot.server, kind: entry.slot.kind == .pushToStart ? "Push-to-start" : "Card update",
                token: entry.token.abbreviated)
        }
        let mode: String
        switch engine.channelInfo?.pushTypeForNewCards {
        case .channel?: mode = "Channel"
        case .token?, .none?: mode = "Token"
        case nil: mode = engine.configuration.requestsChannelCards ? "Not asked yet" : "Token"
        }
        let channel = engine.channelInfo?.channelId.map { String($0.prefix(8)) + "…" }
        let live = cards.liveCards
        return DiagnosticsReport(
            deviceID: engine.configuration.deviceID.rawValue, tokens: tokens, mode: mode, channel: channel,
            cardUpdatedAt: cards.survivor?.content.updatedAt, liveCards: live.count,
            lastNotificationAt: lastNotificationAt, endedReportsOwed: engine.manager.endedReportsOwed,
            connection: connection)
    }
}
