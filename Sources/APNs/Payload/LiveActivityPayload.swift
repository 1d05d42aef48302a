import FleetCore

/// The ActivityKit event a Live Activity push carries in `aps.event`.
public enum LiveActivityEvent: String, Hashable, Sendable, CaseIterable, Codable {
    case start
    case update
    case end
}

/// The `aps` body of a Live Activity push for the fleet card (contract section 6).
///
/// Use ``start(state:attributes:alert:timestamp:staleDate:)``, ``update(state:timestamp:staleDate:alert:)``
/// or ``end(state:timestamp:dismissalDate:)``: each sets exactly the keys its event needs.
/// Dates are whole Unix seconds (the `aps` keys are Unix time, unlike `Date` inside content-state).
public struct LiveActivityPayload: Hashable, Sendable, Encodable {
    public var event: LiveActivityEvent
    /// When the server produced this state; the device ignores a push older than the last it applied.
    public var timestamp: UnixSeconds
    public var contentState: ContentState?
    /// `start` only: the ActivityKit attributes type name.
    public var attributesType: String?
    /// `start` only: the static attributes.
    public var attributes: LFGFleetAttributes?
    /// Required for `start`; optional otherwise.
    public var alert: LiveActivityAlert?
    public var relevanceScore: Int?
    public var staleDate: UnixSeconds?
    public var dismissalDate: UnixSeconds?
    /// `start` only, iOS 18+: `1` asks the system to issue an update token for the started card,
    /// without which the server cannot address it afterwards.
    public var inputPushToken: Int?
    /// `start` only, iOS 18+: the broadcast channel the started card subscribes to (reference 4.2, 5.7).
    /// Set instead of ``inputPushToken``: the card is then updated and ended by broadcasts, with no update token.
    public var inputPushChannel: BroadcastChannelID?

    /// A push-to-start: content state, attributes type and attributes, alert, relevance score.
    ///
    /// With `inputPushChannel` the card joins that broadcast channel (`input-push-channel`, iOS 18+);
    /// without it the start asks for an update token (`input-push-token: 1`). Reference 4.3: one or the other.
    public static func start(
        state: ContentState,
        attributes: LFGFleetAttributes = LFGFleetAttributes(),
        alert: LiveActivityAlert? = nil,
        timestamp: UnixTime,
        staleDate: UnixTime? = nil,
        inputPushChannel: BroadcastChannelID? = nil
    ) -> LiveActivityPayload {
        LiveActivityPayload(
            event: .start, timestamp: UnixSeconds(timestamp: timestamp), contentState: state,
            attributesType: LFGFleetAttributes.typeName, attributes: attributes,
            alert: alert ?? .summary(of: state), relevanceScore: state.relevanceScore,
            staleDate: staleDate.map(UnixSeconds.init(timestamp:)), dismissalDate: nil,
            inputPushToken: inputPushChannel == nil ? 1 : nil, inputPushChannel: inputPushChannel)
    }

    /// An update of a live card: content state and relevance score.
    public static func update(
        state: ContentState,
        timestamp: UnixTime,
        staleDate: UnixTime? = nil,
        alert: LiveActivityAlert? = nil
    ) -> LiveActivityPayload {
        LiveActivityPayload(
            event: .update, timestamp: UnixSeconds(timestamp: timestamp), contentState: state,
            attributesType: nil, attributes: nil, alert: alert, relevanceScore: state.relevanceScore,
            staleDate: staleDate.map(UnixSeconds.init(timestamp:)), dismissalDate: nil, inputPushToken: nil,
            inputPushChannel: nil)
    }

    /// The end of a card: its final (usually zeroed) state and when it leaves the Lock Screen.
    ///
    /// A `dismissalDate` at or before `timestamp` removes the card at once.
    public static func end(state: ContentState, timestamp: UnixTime, dismissalDate: UnixTime) -> LiveActivityPayload {
        LiveActivityPayload(
            event: .end, timestamp: UnixSeconds(timestamp: timestamp), contentState: state,
            attributesType: nil, attributes: nil, alert: nil, relevanceScore: nil, staleDate: nil,
            dismissalDate: UnixSeconds(timestamp: dismissalDate), inputPushToken: nil, inputPushChannel: nil)
    }

    enum CodingKeys: String, CodingKey {
        case event, timestamp, alert, attributes
        case contentState = "content-state"
        case attributesType = "attributes-type"
        case relevanceScore = "relevance-score"
        case staleDate = "stale-date"
        case dismissalDate = "dismissal-date"
        case inputPushToken = "input-push-token"
        case inputPushChannel = "input-push-channel"
    }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: APSKey.self)
        var aps = root.nestedContainer(keyedBy: CodingKeys.self, forKey: .aps)
        try aps.encode(event, forKey: .event)
        try aps.encode(timestamp, forKey: .timestamp)
        try aps.encodeIfPresent(contentState, forKey: .contentState)
        try aps.encodeIfPresent(attributesType, forKey: .attributesType)
        try aps.encodeIfPresent(attributes, forKey: .attributes)
        try aps.encodeIfPresent(alert, forKey: .alert)
        try aps.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
        try aps.encodeIfPresent(staleDate, forKey: .staleDate)
        try aps.encodeIfPresent(dismissalDate, forKey: .dismissalDate)
        try aps.encodeIfPresent(inputPushToken, forKey: .inputPushToken)
        try aps.encodeIfPresent(inputPushChannel, forKey: .inputPushChannel)
    }
}

/// The alert a Live Activity push shows (required on `start`): title, body and an optional sound.
public struct LiveActivityAlert: Hashable, Sendable, Codable {
    public var title: String
    public var body: String
    public var sound: String?

    public init(title: String, body: String, sound: String? = nil) {
        self.title = title
        self.body = body
        self.sound = sound
    }

    /// "LFG" over a count line such as "1 needs input · 2 working".
    public static func summary(of state: ContentState) -> LiveActivityAlert {
        var parts: [String] = []
        if state.needsInput > 0 { parts.append("\(state.needsInput) needs input") }
        if state.working > 0 { parts.append("\(state.working) working") }
        return LiveActivityAlert(title: "LFG", body: parts.isEmpty ? "Nothing active" : parts.joined(separator: " · "))
    }
}

/// The top-level key every APNs payload nests its system keys under.
enum APSKey: String, CodingKey { case aps }

extension UnixSeconds {
    /// Whole seconds, rounded down, from a Unix time in (fractional) seconds.
    init(timestamp: UnixTime) { self = UnixSeconds(timestamp.rounded(.down)) }
}
