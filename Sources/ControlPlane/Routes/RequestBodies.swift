import FleetCore

/// `POST /api/push/live-activity/start-token` and `.../update-token`.
struct TokenRegistrationBody: Decodable {
    var token: String
    var env: PushEnvironment
    var deviceId: DeviceID?

    enum CodingKeys: String, CodingKey { case token, env, deviceId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decodeToken(.token)
        env = try container.decodeEnvironment(.env)
        deviceId = try container.decodeDeviceIdIfPresent(.deviceId)
    }
}

/// `POST /api/push/live-activity/ended`.
struct EndedBody: Decodable {
    var env: PushEnvironment?
    var deviceId: DeviceID?

    enum CodingKeys: String, CodingKey { case env, deviceId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let hasEnv = try container.contains(.env) && !container.decodeNil(forKey: .env)
        env = hasEnv ? try container.decodeEnvironment(.env) : nil
        deviceId = try container.decodeDeviceIdIfPresent(.deviceId)
    }
}

/// `PUT /api/devices/{deviceId}`.
struct DeviceBody: Decodable {
    var profile: DeviceProfile
    var pushToStartToken: String?
    /// Whether the app is in the foreground; nil when the app did not say (older apps never do).
    var appState: DeviceAppState?
    /// The `sealKey` text as sent, checked by the service's ``AlertSealing`` (this layer has no crypto).
    var sealKey: String?

    enum CodingKeys: String, CodingKey {
        case env, platform, apnsToken, pushToStartToken, widgetPushToken, hiddenDirs, appState, liveActivityChannels
        case privacy, sealKey
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let platform = try container.decodeIfPresent(String.self, forKey: .platform) ?? "ios"
        guard platform == "ios" || platform == "watchos" else {
            throw DecodingError.dataCorruptedError(
                forKey: .platform, in: container, debugDescription: "unknown platform '\(platform)'; use ios or watchos")
        }
        profile = DeviceProfile(
            env: try container.decodeEnvironment(.env), platform: platform,
            apnsToken: try container.decodeTokenIfPresent(.apnsToken),
            widgetPushToken: try container.decodeTokenIfPresent(.widgetPushToken),
            hiddenDirs: HiddenDirs(try container.decodeIfPresent([String].self, forKey: .hiddenDirs) ?? []),
            liveActivityChannels: try container.decodeIfPresent(Bool.self, forKey: .liveActivityChannels) ?? false,
            privacy: try container.decodeIfPresent(Bool.self, forKey: .privacy))
        sealKey = try container.decodeIfPresent(String.self, forKey: .sealKey)
        pushToStartToken = try container.decodeTokenIfPresent(.pushToStartToken)
        if let text = try container.decodeIfPresent(String.self, forKey: .appState) {
            guard let state = DeviceAppState(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .appState, in: container,
                    debugDescription: "unknown appState '\(text)'; use foreground or background")
            }
            appState = state
        }
    }
}

/// `PUT /api/hosts/{host}`.
struct HeartbeatBody: Decodable {
    var ttlSeconds: Double

    enum CodingKeys: String, CodingKey { case ttlSeconds }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ttlSeconds = try container.decode(Double.self, forKey: .ttlSeconds)
        guard ttlSeconds > 0, ttlSeconds.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .ttlSeconds, in: container, debugDescription: "must be a number of seconds above 0")
        }
    }
}
