import FleetCore

/// Delivers spooled reports in order: by every hook call, and by the server once at start
/// (``drain(_:using:deadline:)`` is the function it calls, with a delivery into its own store).
public enum SpoolDrainer {
    /// What one drain did.
    public struct Result: Hashable, Sendable {
        /// Reports the server took.
        public var delivered = 0
        /// Reports the server refused for good (dropped so they cannot block the rest).
        public var rejected = 0
        /// Reports still spooled afterwards.
        public var remaining = 0
        /// Why the drain stopped early, when it did.
        public var stoppedBecause: String?

        public init() {}
    }

    /// Seconds one request may take at most; the deadline may cut it shorter.
    public static let requestTimeout = 0.3
    /// Under this much time left, a request is not worth starting.
    static let minimumRequestTime = 0.02
    /// Seconds hook calls leave the server alone after a request timed out: a hung server would
    /// otherwise cost every tool call the whole request timeout. A refused connection costs nothing
    /// and pauses nothing, so a restarted server gets its reports at the very next call.
    public static let slowServerPause: UnixTime = 10

    /// Delivers the spool of `files` oldest first until it is empty, a delivery fails (the rest stays,
    /// in order), or `deadline` passes. Only one process delivers at a time; a drain that cannot get
    /// its turn before the deadline leaves the spool to the process delivering now.
    ///
    /// `now` (Unix seconds) enables the slow-server pause: after a timeout, drains until
    /// `now + slowServerPause` deliver nothing. The server's own start-up drain passes nil.
    public static func drain(
        _ files: HookFiles, using delivery: any ReportDelivery, deadline: HookDeadline, now: UnixTime? = nil,
        requestTimeout: Double = requestTimeout
    ) async -> Result {
        var result = Result()
        guard let turn = FileLock.acquire(files.deliveryLock, until: deadline) else {
            result.remaining = files.spoolLines().count
            result.stoppedBecause = "another hook is delivering"
            return result
        }
        defer { turn.release() }
        if let now, let until = files.pausedUntil(), now < until {
            result.remaining = files.spoolLines().count
            result.stoppedBecause = "the server timed out recently; next try after \(Int(until))"
            return result
        }
        while true {
            let lines = files.spoolLines()
            guard !lines.isEmpty else { break }
            var handled = 0
            for line in lines {
                // A line that does not decode can never be delivered; it is dropped with the handled ones.
                guard let report = SpooledReport.decodeLine(line) else {
                    handled += 1
                    continue
                }
                let left = deadline.remainingSeconds
                guard left >= minimumRequestTime else {
                    result.stoppedBecause = "out of time"
                    break
                }
                let outcome = await delivery.deliver(report, timeout: min(requestTimeout, left))
                if case .failed(let reason) = outcome {
                    result.stoppedBecause = reason
                    break
                }
                if case .timedOut(let reason) = outcome {
                    result.stoppedBecause = reason
                    if let now { files.pause(until: now + slowServerPause) }
                    break
                }
                if case .rejected = outcome { result.rejected += 1 } else { result.delivered += 1 }
                handled += 1
            }
            if handled > 0 {
                guard let edit = FileLock.acquire(files.journalLock, until: deadline) else {
                    result.stoppedBecause = "could not lock the spool to trim it"
                    break
                }
                try? files.dropFirst(handled)
                edit.release()
            }
            if result.stoppedBecause != nil { break }
        }
        if result.delivered + result.rejected > 0 { files.pause(until: nil) }
        result.remaining = files.spoolLines().count
        return result
    }
}
