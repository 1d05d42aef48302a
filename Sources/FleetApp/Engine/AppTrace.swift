import FleetCore

/// One thing the app did, for tests and the simulator's trace. Tokens appear only abbreviated.
public enum AppTraceEvent: Hashable, Sendable {
    /// A sync ran: its trigger, what it saw and what it decided.
    case synced(FleetActivityController.Decision)
    /// ActivityKit refused to start a card.
    case requestRefused(ActivityRequestError)
    /// The manager decided these effects for this event.
    case managed(LiveActivityManager.Event, [LiveActivityManager.Effect])
    /// A call went to a server.
    case sent(CallID, ControlPlaneCall, server: String)
    /// A server answered a call (or it failed).
    case answered(CallID, ControlPlaneCall, server: String, error: ControlPlaneError?)
    /// The phone's sealing key could not be read or made (contract 8.3): the registration went without it, so
    /// alerts arrive as placeholders until it can.
    case sealKeyFailed(SealKeyringError)
}

/// A trace event with the time it happened.
public struct AppTraceEntry: Hashable, Sendable {
    public var at: UnixTime
    public var event: AppTraceEvent
}
