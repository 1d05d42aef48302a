import FleetCore

extension PushRequest {
    /// A fleet-card Live Activity push: `liveactivity` type, `<bundle>.push-type.liveactivity` topic, priority 10.
    ///
    /// Throws `.payloadTooLarge` when the encoded body is over 4096 bytes: nothing is sent.
    public static func liveActivity(
        _ payload: LiveActivityPayload,
        token: DeviceToken,
        environment: PushEnvironment,
        bundleID: BundleID,
        priority: PushPriority = .immediate,
        apnsID: APNsID? = nil
    ) throws(PushRequestError) -> PushRequest {
        try PushRequest(
            token: token, environment: environment, pushType: .liveActivity,
            topic: PushType.liveActivity.topic(bundleID: bundleID), priority: priority, apnsID: apnsID,
            payload: PushPayload(encoding: payload))
    }

    /// A broadcast to every card subscribed to `channel` (reference 5.5): `POST /4/broadcasts/apps/<bundle>`,
    /// `apns-channel-id`, `apns-push-type: liveactivity` (section 9 item 6), no `apns-topic`, a required
    /// priority and expiration (see ``ChannelStoragePolicy/broadcastExpiration(now:keepFor:)``).
    ///
    /// Throws `.broadcastCannotStart` for a `start` payload (reference 4.3, 5.1: a broadcast never starts a
    /// card) and `.payloadTooLarge` over 5120 bytes: nothing is sent.
    public static func broadcast(
        _ payload: LiveActivityPayload,
        channel: BroadcastChannelID,
        environment: PushEnvironment,
        bundleID: BundleID,
        priority: PushPriority,
        expiration: PushExpiration,
        apnsID: APNsID? = nil
    ) throws(PushRequestError) -> PushRequest {
        guard payload.event != .start else { throw .broadcastCannotStart }
        return try PushRequest(
            destination: .channel(channel), environment: environment, pushType: .liveActivity, topic: bundleID.rawValue,
            priority: priority, expiration: expiration, apnsID: apnsID, payload: PushPayload(encoding: payload))
    }

    /// A user-visible alert to the app's device token, priority 10 unless told otherwise.
    public static func alert(
        _ payload: AlertPayload,
        token: DeviceToken,
        environment: PushEnvironment,
        bundleID: BundleID,
        priority: PushPriority = .immediate,
        collapseID: CollapseID? = nil,
        expiration: PushExpiration? = nil
    ) throws(PushRequestError) -> PushRequest {
        try PushRequest(
            token: token, environment: environment, pushType: .alert, topic: PushType.alert.topic(bundleID: bundleID),
            priority: priority, expiration: expiration, collapseID: collapseID, payload: PushPayload(encoding: payload))
    }

    /// A silent background push: always priority 5, as APNs requires.
    public static func background(
        _ payload: BackgroundPayload = BackgroundPayload(),
        token: DeviceToken,
        environment: PushEnvironment,
        bundleID: BundleID,
        expiration: PushExpiration? = nil
    ) throws(PushRequestError) -> PushRequest {
        try PushRequest(
            token: token, environment: environment, pushType: .background,
            topic: PushType.background.topic(bundleID: bundleID), priority: .powerConsidered, expiration: expiration,
            payload: PushPayload(encoding: payload))
    }

    /// A WidgetKit reload to a widget push token (`widgets` type, `<bundle>.push-type.widgets` topic).
    public static func widgetReload(
        token: DeviceToken,
        environment: PushEnvironment,
        bundleID: BundleID,
        priority: PushPriority = .immediate
    ) throws(PushRequestError) -> PushRequest {
        try PushRequest(
            token: token, environment: environment, pushType: .widgets,
            topic: PushType.widgets.topic(bundleID: bundleID), priority: priority,
            payload: PushPayload(encoding: WidgetReloadPayload()))
    }
}
