import APNs
import FleetCore

/// The device endpoints of contract 8.1: reading a device with its channel, deleting it, and the app's
/// report of a card it made on its channel.
extension ControlPlaneService {
    /// `GET /api/devices/{deviceId}`: the device as stored, plus its channel id and mode; a 404 when unknown.
    /// A device another instance drives is read from the store, with the instance driving it.
    public func device(_ deviceId: DeviceID) async throws(ServiceError) -> DeviceListing {
        let instance = dependencies.coordinator?.shared.instance
        if let record = watcher.boxes[deviceId]?.record { return deviceListing(deviceId, record, drivenBy: instance) }
        guard dependencies.coordinator != nil else { throw .notFound("no device '\(deviceId)'") }
        let stored: StoredDevices
        do { stored = try await devicesElsewhere(among: [deviceId]) } catch { throw .store(error) }
        // Taken by this instance while the store was read: listed as it is here now.
        if let record = watcher.boxes[deviceId]?.record { return deviceListing(deviceId, record, drivenBy: instance) }
        guard let record = stored.records[deviceId] else { throw .notFound("no device '\(deviceId)'") }
        return deviceListing(deviceId, record, drivenBy: stored.drivers[deviceId])
    }

    private func deviceListing(_ deviceId: DeviceID, _ record: DeviceRecord, drivenBy: InstanceID?) -> DeviceListing {
        var listing = DeviceListing(
            deviceId: deviceId, record: record, mode: watcher.mode(of: record),
            privacyByDefault: dependencies.policy.privacyByDefault)
        listing.drivenBy = drivenBy
        return listing
    }

    /// `DELETE /api/devices/{deviceId}`: forgets the device and deletes its channels at APNs; a 404 when unknown.
    public func deleteDevice(_ deviceId: DeviceID) async throws(ServiceError) {
        // Driven by another instance: its owner deletes it (an unknown id there changes nothing).
        if watcher.boxes[deviceId] == nil {
            guard try await isDrivenElsewhere(deviceId) else { throw .notFound("no device '\(deviceId)'") }
        }
        try await handle([.deviceDeleted(deviceId, at: now)])
    }

    /// `POST /api/push/live-activity/channel-card`: the app made its own card on the device's channel.
    /// A 404 when the device has no such channel (the app holds an id from before a renewal or a
    /// fallback: it should read `GET /api/devices/{deviceId}` again).
    public func reportChannelCard(_ deviceId: DeviceID, channelId: BroadcastChannelID) async throws(ServiceError) {
        let channels = watcher.boxes[deviceId]?.record.channel.channels ?? []
        if !channels.contains(where: { $0.id == channelId }) {
            guard try await isDrivenElsewhere(deviceId) else {
                throw .notFound(
                    "device '\(deviceId)' has no channel '\(channelId.first8)…'; read GET /api/devices/\(deviceId) for the current one")
            }
        }
        try await handle([.channelCardReported(deviceId, channelId, at: now)])
    }
}

/// One device as `GET /api/devices/{deviceId}` returns it (tokens as counts, app tokens first 8 only).
public struct DeviceListing: Hashable, Sendable, Encodable {
    public var deviceId: DeviceID
    public var env: PushEnvironment?
    public var platform: String
    public var hiddenDirs: [String]
    public var liveActivityChannels: Bool
    /// The base64 id the app passes to `pushType: .channel(...)`; null in token mode.
    public var channelId: String?
    public var mode: CardMode
    /// Why the device runs in token mode although it asked for channels (the log says the same).
    public var channelFallback: String?
    public var apnsToken: String?
    public var widgetPushToken: String?
    public var tokens: LiveActivityState.TokenCounts
    /// Whether privacy mode is on (asked, or the server's default): pushes carry no words (contract 8.3).
    public var privacy: Bool
    /// The id of the key alerts are sealed to; null when none is registered.
    public var sealKeyId: String?
    /// Several instances on one database: the instance driving the card now (nil: none holds its lease at
    /// the moment, or a lone instance, which leaves the field out).
    public var drivenBy: InstanceID?

    init(deviceId: DeviceID, record: DeviceRecord, mode: CardMode, privacyByDefault: Bool) {
        privacy = record.profile.isPrivate(byDefault: privacyByDefault)
        sealKeyId = record.profile.sealKey?.keyID
        self.deviceId = deviceId
        env = record.profile.env
        platform = record.profile.platform
        hiddenDirs = record.profile.hiddenDirs.paths
        liveActivityChannels = record.profile.liveActivityChannels
        channelId = mode == .channel ? record.channel.current?.id.rawValue : nil
        self.mode = mode
        channelFallback = record.channel.fallbackReason
        apnsToken = record.profile.apnsToken.map(TokenHex.short)
        widgetPushToken = record.profile.widgetPushToken.map(TokenHex.short)
        tokens = LiveActivityState.TokenCounts(
            pushToStart: record.tokens.of(.pushToStart).count, update: record.tokens.of(.update).count)
    }

    enum CodingKeys: String, CodingKey {
        case deviceId, env, platform, hiddenDirs, liveActivityChannels, channelId, mode, channelFallback, apnsToken
        case widgetPushToken, tokens, privacy, sealKeyId, drivenBy
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encode(env, forKey: .env)
        try container.encode(platform, forKey: .platform)
        try container.encode(hiddenDirs, forKey: .hiddenDirs)
        try container.encode(liveActivityChannels, forKey: .liveActivityChannels)
        try container.encode(channelId, forKey: .channelId)
        try container.encode(mode, forKey: .mode)
        try container.encode(channelFallback, forKey: .channelFallback)
        try container.encode(apnsToken, forKey: .apnsToken)
        try container.encode(widgetPushToken, forKey: .widgetPushToken)
        try container.encode(tokens, forKey: .tokens)
        try container.encode(privacy, forKey: .privacy)
        try container.encode(sealKeyId, forKey: .sealKeyId)
        try container.encodeIfPresent(drivenBy?.rawValue, forKey: .drivenBy)
    }
}
