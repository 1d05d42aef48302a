import APNs
import FleetCore

/// APNs' answer to one channel-management request or one broadcast (reference sections 5.3-5.6), or the
/// transport's failure (status 0, the error text as reason).
public struct ChannelAnswer: Hashable, Sendable {
    /// The HTTP status: 201 created, 204 deleted, 200 published; 0 when no answer came.
    public var status: Int
    /// APNs' `reason` (`CannotCreateChannelConfig`, `ChannelNotRegistered`, ...), typed.
    public var reason: APNsReason?
    /// Why no answer came (the transport's error), when status is 0.
    public var failure: String?
    /// For a create: the `apns-channel-id` APNs made.
    public var channelId: BroadcastChannelID?
    /// How long the request took, in milliseconds.
    public var milliseconds: Double

    public init(
        status: Int, reason: APNsReason? = nil, failure: String? = nil, channelId: BroadcastChannelID? = nil,
        milliseconds: Double = 0
    ) {
        self.status = status
        self.reason = reason
        self.failure = failure
        self.channelId = channelId
        self.milliseconds = milliseconds
    }

    /// What the log's `reason` field says: APNs' reason, or the transport's failure.
    public var reasonText: String? { reason?.rawValue ?? failure }

    /// A channel was made and APNs named it.
    public var isCreated: Bool { status == 201 && channelId != nil }

    /// A broadcast was accepted (never proof that a card updated: broadcasts have no per-device answer).
    public var isPublished: Bool { status == 200 }

    /// The channel is gone: deleted (204), or APNs no longer knows it (`ChannelNotRegistered`), which a
    /// delete counts as done.
    public var isDeletedOrGone: Bool { status == 204 || status == 200 || isChannelUnknown }

    /// APNs does not know the channel (deleted, another environment, capability turned off).
    public var isChannelUnknown: Bool {
        status == 400 && (reason == .channelNotRegistered || reason == .badChannelID)
    }

    /// A failure retrying cannot fix: the app's channel limit, or broadcast not enabled for the app.
    public var isCreationHopeless: Bool {
        status == 400 && (reason == .cannotCreateChannelConfig || reason == .featureNotEnabled)
    }
}

/// What the driver must ask APNs' channel management API (effects of the watcher).
public enum ChannelRequest: Hashable, Sendable {
    /// `POST /1/apps/<bundle>/channels` in `env`; the answer comes back as
    /// ``WatcherEvent/channelCreationAnswered(_:_:_:at:)``.
    case create(DeviceID, PushEnvironment, ChannelStoragePolicy)
    /// `DELETE /1/apps/<bundle>/channels` for a channel nobody needs any more; the answer comes back as
    /// ``WatcherEvent/channelDeletionAnswered(_:_:at:)``.
    case delete(DeviceChannel)
}

extension ChannelAnswer {
    /// The answer as decision-log lines record it.
    var logged: LoggedAnswer { LoggedAnswer(status: status, reason: reasonText, milliseconds: milliseconds) }
}
