import FleetCore

/// The knobs of the simulated world: latencies, failure rates and iOS's habits, all in seconds or probabilities.
///
/// Defaults come from the seed and the APNs reference: APNs answers in tens to hundreds of milliseconds,
/// 5xx are rare, iOS suspends a backgrounded app within seconds, and the background launch after a
/// push-to-start often does not happen (the seed saw 9 of 14 starts with no token back within 90 s).
public struct SimulationEnvironment: Hashable, Sendable {
    /// The watcher's tick period (`LFG_TICK_MS` = 2000).
    public var tick: Double = 2
    /// APNs round trip for one push.
    public var apnsLatency: ClosedRange<Double> = 0.05...0.4
    /// Chance that APNs answers one push with a transient 5xx, per environment (separate endpoints).
    public var apnsTransientFailure: [PushEnvironment: Double] = [.sandbox: 0.01, .production: 0.01]
    /// Chance that APNs accepts a push (200) and it never reaches the phone. Apple publishes nothing;
    /// developers report occasional silent losses on the forums; pessimistic: 1 in 200.
    public var apnsDropAfterAcceptance: Double = 0.005
    /// iOS's hourly budget of priority-10 Live Activity pushes per app (reference 4.6: unpublished; third
    /// parties quote about 15). Over it iOS holds updates until a slot frees and refuses starts.
    public var immediateBudgetPerHour: Int = 15
    /// When a priority-5 push lands after APNs accepts it ("opportunistic"; Apple publishes no figure;
    /// chosen: up to 5 s on an idle phone).
    public var routineDeliveryDelay: ClosedRange<Double> = 0...5
    /// Channels APNs allows per app and environment (reference 5.3: 10,000; past it `CannotCreateChannelConfig`).
    public var channelLimit: Int = 10_000
    /// Publishes per channel per rolling minute before APNs answers 429 `TooManyRequests` (Apple publishes
    /// no number; chosen, pessimistic: 30).
    public var broadcastsPerChannelPerMinute: Int = 30
    /// How long a policy-1 channel keeps its latest message for an offline phone (reference 5.4: 8 hours).
    public var channelMessageStorage: Double = 8 * 3600
    /// A session change reaching the app's event stream.
    public var networkLatency: ClosedRange<Double> = 0.05...0.3
    /// A token registration, device report or `/ended` round trip through the tunnel.
    public var registrationLatency: ClosedRange<Double> = 0.2...1.0
    /// The session list refresh the app runs every so often while in the foreground (the fourth sync trigger).
    public var foregroundRefresh: Double = 15
    /// Chance that iOS launches the app in the background after a push-to-start creates a card.
    public var backgroundWakeAfterStart: Double = 0.45
    /// Delay before that background launch.
    public var backgroundWakeDelay: ClosedRange<Double> = 1...6
    /// Chance that one registration sent from a background launch gets through the tunnel in time.
    public var backgroundRegistrationSuccess: Double = 0.8
    /// How long a background launch runs before iOS suspends it again.
    public var backgroundWindow: Double = 30
    /// How long a backgrounded app keeps running before it is suspended.
    public var suspendAfterLeaving: Double = 10
    /// From a card's creation (or a launch) to ActivityKit minting its token.
    public var tokenMintDelay: Double = 0.3
    /// A `GET /api/sessions` round trip.
    public var fetchLatency: ClosedRange<Double> = 0.2...0.8
    /// How long a restarted server takes to load its persisted card state.
    public var serverLoadDelay: Double = 1.5

    public init() {}
}
