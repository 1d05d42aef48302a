/// When a session entered its current active state.
public struct SinceEntry: Hashable, Sendable, Codable {
    public var state: RowState
    public var since: UnixTime

    public init(state: RowState, since: UnixTime) {
        self.state = state
        self.since = since
    }
}

extension SinceEntry: WireJSONWritable {
    /// The bytes of the synthesized `encode(to:)` under `WireJSON` (keys sorted).
    public func write(to writer: inout WireJSONWriter) throws {
        writer.beginObject()
        try writer.member("since", since)
        writer.member("state", state.rawValue)
        writer.endObject()
    }
}

/// The sticky `since` baselines, keyed by session, carried across reductions by both writers.
///
/// Kept for every active session, not only the rendered rows, so a session that scrolls out of the
/// three visible rows and back keeps its elapsed time.
public typealias SinceMap = [SessionID: SinceEntry]

extension Dictionary where Key == SessionID, Value == SinceEntry {
    /// The baseline for `sid` in `state` at `now`: the prior one when the state is unchanged, else `now`.
    public func since(for sid: SessionID, in state: RowState, now: UnixTime) -> UnixTime {
        if let previous = self[sid], previous.state == state { return previous.since }
        return now
    }
}
