/// Every `reason` string APNs documents for device pushes (reference 1.8) and for broadcasts and
/// channel management (reference 5.6), plus ``unknown(_:)`` for the rest.
///
/// Each case knows its ``remedy``; the caller switches on ``PushResponse/outcome`` (or the remedy)
/// rather than on strings.
public enum APNsReason: Hashable, Sendable, CustomStringConvertible {
    case badCollapseID, badDeviceToken, badExpirationDate, badMessageID, badPriority, badTopic
    case deviceTokenNotForTopic, duplicateHeaders, idleTimeout, invalidPushType, missingDeviceToken
    case missingTopic, payloadEmpty, topicDisallowed
    case badCertificate, badCertificateEnvironment, expiredProviderToken, forbidden, invalidProviderToken
    case missingProviderToken, unrelatedKeyIDInToken, badEnvironmentKeyIDInToken, badEnvironmentKeyInToken
    case badPath, methodNotAllowed
    case expiredToken, unregistered
    case payloadTooLarge
    case tooManyProviderTokenUpdates, tooManyRequests
    case internalServerError, serviceUnavailable, shutdown
    // Broadcast and channel management only (reference 5.6).
    case featureNotEnabled, missingChannelID, badChannelID, channelNotRegistered, badRequestParams, badRequestPayload
    case missingPushType, cannotCreateChannelConfig, topicMismatch
    /// A reason string this code does not know; classified by status alone.
    case unknown(String)

    /// Every known case, for tables and tests.
    public static let known: [APNsReason] = [
        .badCollapseID, .badDeviceToken, .badExpirationDate, .badMessageID, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed, .badCertificate, .badCertificateEnvironment,
        .expiredProviderToken, .forbidden, .invalidProviderToken, .missingProviderToken, .unrelatedKeyIDInToken,
        .badEnvironmentKeyIDInToken, .badEnvironmentKeyInToken, .badPath, .methodNotAllowed, .expiredToken,
        .unregistered, .payloadTooLarge, .tooManyProviderTokenUpdates, .tooManyRequests, .internalServerError,
        .serviceUnavailable, .shutdown, .featureNotEnabled, .missingChannelID, .badChannelID, .channelNotRegistered,
        .badRequestParams, .badRequestPayload, .missingPushType, .cannotCreateChannelConfig, .topicMismatch,
    ]

    /// Parses the `reason` string of an APNs error body.
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// The exact string APNs sends.
    public var rawValue: String {
        switch self {
        case .badCollapseID: "BadCollapseId"
        case .badDeviceToken: "BadDeviceToken"
        case .badExpirationDate: "BadExpirationDate"
        case .badMessageID: "BadMessageId"
        case .badPriority: "BadPriority"
        case .badTopic: "BadTopic"
        case .deviceTokenNotForTopic: "DeviceTokenNotForTopic"
        case .duplicateHeaders: "DuplicateHeaders"
        case .idleTimeout: "IdleTimeout"
        case .invalidPushType: "InvalidPushType"
        case .missingDeviceToken: "MissingDeviceToken"
        case .missingTopic: "MissingTopic"
        case .payloadEmpty: "PayloadEmpty"
        case .topicDisallowed: "TopicDisallowed"
        case .badCertificate: "BadCertificate"
        case .badCertificateEnvironment: "BadCertificateEnvironment"
        case .expiredProviderToken: "ExpiredProviderToken"
        case .forbidden: "Forbidden"
        case .invalidProviderToken: "InvalidProviderToken"
        case .missingProviderToken: "MissingProviderToken"
        case .unrelatedKeyIDInToken: "UnrelatedKeyIdInToken"
        case .badEnvironmentKeyIDInToken: "BadEnvironmentKeyIdInToken"
        case .badEnvironmentKeyInToken: "BadEnvironmentKeyInToken"
        case .badPath: "BadPath"
        case .methodNotAllowed: "MethodNotAllowed"
        case .expiredToken: "ExpiredToken"
        case .unregistered: "Unregistered"
        case .payloadTooLarge: "PayloadTooLarge"
        case .tooManyProviderTokenUpdates: "TooManyProviderTokenUpdates"
        case .tooManyRequests: "TooManyRequests"
        case .internalServerError: "InternalServerError"
        case .serviceUnavailable: "ServiceUnavailable"
        case .shutdown: "Shutdown"
        case .featureNotEnabled: "FeatureNotEnabled"
        case .missingChannelID: "MissingChannelId"
        case .badChannelID: "BadChannelId"
        case .channelNotRegistered: "ChannelNotRegistered"
        case .badRequestParams: "BadRequestParams"
        case .badRequestPayload: "BadRequestPayload"
        case .missingPushType: "MissingPushType"
        case .cannotCreateChannelConfig: "CannotCreateChannelConfig"
        case .topicMismatch: "TopicMismatch"
        case .unknown(let raw): raw
        }
    }

    public var description: String { rawValue }

    /// What to do about it (Apple's handling table, reference sections 1.8 and 5.6).
    public var remedy: PushRemedy {
        switch self {
        case .unregistered, .expiredToken, .badDeviceToken: .dropToken
        case .channelNotRegistered: .dropChannel
        case .cannotCreateChannelConfig: .useTokenMode
        case .expiredProviderToken: .refreshProviderToken
        case .tooManyProviderTokenUpdates: .reuseProviderToken
        case .tooManyRequests, .internalServerError, .serviceUnavailable: .backOff
        case .idleTimeout, .shutdown, .unrelatedKeyIDInToken: .reconnect
        case .badTopic, .topicDisallowed, .deviceTokenNotForTopic, .badCertificate, .badCertificateEnvironment,
            .forbidden, .invalidProviderToken, .missingProviderToken, .badEnvironmentKeyIDInToken,
            .badEnvironmentKeyInToken, .featureNotEnabled, .topicMismatch:
            .fixConfiguration
        case .badCollapseID, .badExpirationDate, .badMessageID, .badPriority, .duplicateHeaders, .invalidPushType,
            .missingDeviceToken, .missingTopic, .payloadEmpty, .badPath, .methodNotAllowed, .payloadTooLarge,
            .missingChannelID, .badChannelID, .badRequestParams, .badRequestPayload, .missingPushType:
            .fixRequest
        case .unknown: .fixRequest
        }
    }

    /// One sentence for an operator: what APNs meant.
    public var explanation: String {
        switch self {
        case .badCollapseID: "the apns-collapse-id is longer than 64 bytes"
        case .badDeviceToken: "the token is malformed or belongs to the other APNs environment"
        case .badExpirationDate: "the apns-expiration value is bad"
        case .badMessageID: "the apns-id is not a UUID"
        case .badPriority: "the apns-priority is not allowed for this push"
        case .badTopic: "the apns-topic is not valid for this key; check LFG_APNS_BUNDLE_ID"
        case .deviceTokenNotForTopic: "the token belongs to another topic (wrong push type or bundle id)"
        case .duplicateHeaders: "a header was repeated"
        case .idleTimeout: "the connection sat idle too long; reconnect and resend"
        case .invalidPushType: "the apns-push-type is not valid"
        case .missingDeviceToken: "the path holds no device token"
        case .missingTopic: "the apns-topic header is missing"
        case .payloadEmpty: "the body is empty"
        case .topicDisallowed: "pushing to this topic is not allowed for this key"
        case .badCertificate: "the client certificate is invalid"
        case .badCertificateEnvironment: "the client certificate is for the other environment"
        case .expiredProviderToken: "the provider JWT is older than an hour; mint a new one"
        case .forbidden: "APNs does not allow this action"
        case .invalidProviderToken:
            "the provider JWT does not verify; check LFG_APNS_KEY_FILE, LFG_APNS_KEY_ID and LFG_APNS_TEAM_ID"
        case .missingProviderToken: "no authorization header was sent"
        case .unrelatedKeyIDInToken: "the key id differs from the one this connection started with; reconnect"
        case .badEnvironmentKeyIDInToken, .badEnvironmentKeyInToken: "the signing key is not valid for this environment"
        case .badPath: "the request path is wrong"
        case .methodNotAllowed: "the method is not allowed for this path"
        case .expiredToken: "the device token expired; stop sending to it"
        case .unregistered: "the token is no longer active for the topic; stop sending to it"
        case .payloadTooLarge: "the body is over APNs' size limit"
        case .tooManyProviderTokenUpdates: "the provider JWT changed more than once in 20 minutes; reuse it"
        case .tooManyRequests: "too many pushes to this token in a row; retry later"
        case .internalServerError: "APNs had an internal error; retry with back-off"
        case .serviceUnavailable: "APNs is unavailable; retry with back-off"
        case .shutdown: "this APNs server is shutting down; reconnect and resend"
        case .featureNotEnabled:
            "the app's Broadcast Capability is off; enable it on developer.apple.com (Identifiers > App ID > Push Notifications)"
        case .missingChannelID: "the apns-channel-id header is missing"
        case .badChannelID: "the apns-channel-id is badly encoded or too long"
        case .channelNotRegistered: "the channel does not exist (deleted, or made in the other environment); stop publishing to it"
        case .badRequestParams: "the JSON request holds an attribute APNs does not know"
        case .badRequestPayload: "the JSON request does not parse"
        case .missingPushType: "the apns-push-type header is missing"
        case .cannotCreateChannelConfig: "the app has reached APNs' limit of 10,000 channels per environment; delete unused ones"
        case .topicMismatch: "the provider key's bundle ids do not include the bundle id in the path"
        case .unknown(let raw): "APNs answered an undocumented reason '\(raw)'"
        }
    }
}
