import FleetCore
import Foundation

/// One `lfg hook` call: read the event, update the session's state, spool its report, deliver the spool.
///
/// Every report goes through the spool, so reports leave in the order their events happened even
/// when several hooks run at once or the server was down for a while.
public struct HookRunner: Sendable {
    /// The hard bound of one hook call in seconds: well under a second even when the server hangs.
    public static let timeBudget = 0.5
    /// Session state untouched this long (seconds) is deleted when a session starts.
    public static let stateLifetime: UnixTime = 30 * 24 * 3600
    /// The default ``spoolLimit``.
    public static let defaultSpoolLimit = 1_000

    public var files: HookFiles
    public var host: HostID
    public var delivery: any ReportDelivery
    /// Past this many spooled reports, the spool keeps only each session's newest (see ``HookFiles``).
    public var spoolLimit: Int
    /// Unix seconds now (the slow-server pause is kept in wall time because it spans processes).
    public var wallClock: @Sendable () -> UnixTime
    /// Seconds one delivery request may take (see ``SpoolDrainer/requestTimeout``).
    public var requestTimeout: Double

    public init(
        files: HookFiles, host: HostID = .local, delivery: any ReportDelivery, spoolLimit: Int = defaultSpoolLimit,
        requestTimeout: Double = SpoolDrainer.requestTimeout, wallClock: @escaping @Sendable () -> UnixTime
    ) {
        self.files = files
        self.host = host
        self.delivery = delivery
        self.spoolLimit = spoolLimit
        self.requestTimeout = requestTimeout
        self.wallClock = wallClock
    }

    /// What one call did.
    public struct Summary: Sendable {
        /// Reports this event queued (zero when it changed nothing).
        public var queued: [SpooledReport] = []
        public var drain = SpoolDrainer.Result()
        /// Why the event was not recorded, when it was not (bad input, unwritable `$LFG_HOME`).
        public var problem: String?
    }

    /// Handles one hook input (the JSON text on stdin) within `deadline`. Never throws.
    public func handle(_ input: String, deadline: HookDeadline) async -> Summary {
        var summary = Summary()
        do {
            try files.prepare()
        } catch {
            summary.problem = "cannot write \(files.home.path) (\(error.localizedDescription)); set LFG_HOME to a writable folder"
            return summary
        }
        do {
            let event = try HookEvent.decode(input)
            summary.queued = try record(event, deadline: deadline)
        } catch let error as HookInputError {
            summary.problem = error.message
        } catch {
            summary.problem = "could not record the event: \(error)"
        }
        // Even a call whose own event changed nothing delivers what earlier calls spooled.
        summary.drain = await SpoolDrainer.drain(
            files, using: delivery, deadline: deadline, now: wallClock(), requestTimeout: requestTimeout)
        return summary
    }

    /// Reduces `event` into its session's stored state and appends the resulting reports to the spool.
    func record(_ event: HookEvent, deadline: HookDeadline) throws -> [SpooledReport] {
        guard let lock = FileLock.acquire(files.journalLock, until: deadline) else {
            throw HookInputError("another hook held \(files.journalLock) past the time budget; the event was not recorded")
        }
        defer { lock.release() }
        var state = files.loadState(event.sessionID)
        let effects = HookReducer.reduce(&state, event, host: host)
        guard let state, !effects.isEmpty else { return [] }
        try files.saveState(state, for: event.sessionID)
        let reports = effects.map { effect in
            switch effect {
            case .putReport(let report): report
            }
        }
        try files.append(reports)
        try files.compactIfOver(spoolLimit)
        if event.name == .sessionStart { files.pruneStates(untouchedSince: wallClock() - Self.stateLifetime) }
        return reports
    }
}
