import FleetCore

/// What one session keeps on disk between hook calls (`hook-sessions/<key>.json`): the reduced state,
/// the reports not yet delivered, and the names of the inbox entries already reduced.
///
/// Written whole through a temporary file, so a `kill -9` leaves either the old record or the new one:
/// an event is either still in the inbox or already in ``state`` and ``outbox``, never both and
/// never neither (``taken`` closes the gap between saving the record and deleting the entries).
public struct SessionRecord: Hashable, Sendable, Codable {
    /// The session as the hook sees it; nil until its first event that changes a report.
    public var state: HookSessionState?
    /// The sequence number of the newest report queued (reports carry 1, 2, 3, … per session).
    public var seq: Int
    /// Reports reduced but not yet taken by the server, oldest first.
    public var outbox: [SpooledReport]
    /// Inbox entries already reduced into this record, deleted right after it is saved; a record saved
    /// by a process killed before the deletion names them, so they are never reduced twice.
    public var taken: [String]

    public init(state: HookSessionState? = nil, seq: Int = 0, outbox: [SpooledReport] = [], taken: [String] = []) {
        self.state = state
        self.seq = seq
        self.outbox = outbox
        self.taken = taken
    }

    /// Past this many undelivered reports a session keeps only its newest: each is a whole PUT, so the
    /// final state survives a server that stayed away for a long time, in bounded space.
    public static let outboxLimit = 200

    /// Reduces `event` into the state and queues what it produces, numbered.
    public mutating func reduce(_ event: HookEvent, host: HostID) {
        for effect in HookReducer.reduce(&state, event, host: host) {
            switch effect {
            case .putReport(var report):
                seq += 1
                report.seq = seq
                outbox.append(report)
            }
        }
        if outbox.count > Self.outboxLimit { outbox = Array(outbox.suffix(1)) }
    }
}
