import FleetCore
import Foundation

/// Delivers every session's pending work: the server calls ``drain(_:using:deadline:)`` once at start
/// (with a delivery into its own store), and a hook with time to spare helps sessions nobody is
/// delivering (``helpStranded(_:excluding:using:deadline:)``).
public enum SpoolDrainer {
    /// What one delivery did.
    public struct Result: Hashable, Sendable {
        /// Reports the server took.
        public var delivered = 0
        /// Reports the server refused for good (dropped so they cannot block the rest).
        public var rejected = 0
        /// Reports and events still pending afterwards (of the sessions this delivery looked at).
        public var remaining = 0
        /// Why it stopped early, when it did.
        public var stoppedBecause: DeliveryStop?
        /// Why a pause or refused-token marker could not be written or cleared (`lfg hook` says each on stderr).
        public var markerFailures: [String] = []

        public init() {}

        mutating func add(_ other: Result) {
            delivered += other.delivered
            rejected += other.rejected
            remaining += other.remaining
            stoppedBecause = stoppedBecause ?? other.stoppedBecause
            markerFailures += other.markerFailures
        }
    }

    /// Seconds one request may take at most; the deadline may cut it shorter.
    public static let requestTimeout = 0.3
    /// Seconds hook calls leave the server alone after a request timed out: a hung server would
    /// otherwise cost every tool call the whole request timeout. A refused connection costs nothing
    /// and pauses nothing, so a restarted server gets its reports at the very next call.
    public static let slowServerPause: UnixTime = 10
    /// A session folder untouched this long (seconds) while nobody holds its turn is stranded: its
    /// last hook ran out of time. Younger ones are left to their own hooks.
    public static let strandedAfter: Double = 2
    /// At most this many stranded sessions are helped per hook call.
    static let helpLimit = 8

    /// Delivers every session with anything pending (and an earlier version's spool first), waiting
    /// for each session's turn, until `deadline`.
    public static func drain(_ files: HookFiles, using delivery: any ReportDelivery, deadline: HookDeadline) async -> Result {
        var result = await drainLegacySpool(files, using: delivery, deadline: deadline)
        let deliverer = SessionDeliverer(files: files, delivery: delivery)
        for key in files.inbox.sessionKeys().sorted() {
            result.add(await deliverer.deliver(key, deadline: deadline, waitForTurn: true))
        }
        return result
    }

    /// Delivers sessions other than `excluding` whose folder has been untouched for
    /// ``strandedAfter`` and whose turn is free, until `deadline`.
    public static func helpStranded(
        _ deliverer: SessionDeliverer, excluding: String?, deadline: HookDeadline, now: Double
    ) async -> Result {
        var result = await drainLegacySpool(deliverer.files, using: deliverer.delivery, deadline: deadline)
        var helped = 0
        for key in deliverer.files.inbox.sessionKeys() where key != excluding {
            guard helped < helpLimit, !deadline.hasPassed, result.stoppedBecause == nil else { break }
            let folder = deliverer.files.inbox.folder(key).path
            guard let touched = (try? FileManager.default.attributesOfItem(atPath: folder)[.modificationDate] as? Date),
                now - touched.timeIntervalSince1970 >= strandedAfter
            else { continue }
            var one = await deliverer.deliver(key, deadline: deadline)
            if one.stoppedBecause == .anotherProcessDelivers { one.stoppedBecause = nil }
            result.add(one)
            helped += 1
        }
        return result
    }

    /// Delivers `hook-spool.jsonl` of an earlier version, oldest first, and removes what it took.
    static func drainLegacySpool(_ files: HookFiles, using delivery: any ReportDelivery, deadline: HookDeadline) async -> Result {
        var result = Result()
        let lines = files.legacySpoolLines()
        guard !lines.isEmpty, let turn = FileLock.tryAcquire(files.home.appendingPathComponent("hook-delivery.lock").path) else {
            return result
        }
        defer { turn.release() }
        var handled = 0
        for line in lines {
            guard let report = SpooledReport.decodeLine(line) else {
                handled += 1
                continue
            }
            guard deadline.remainingSeconds >= SessionDeliverer.minimumRequestTime else {
                result.stoppedBecause = .outOfTime
                break
            }
            switch await delivery.deliver(report, timeout: min(requestTimeout, deadline.remainingSeconds)) {
            case .delivered: result.delivered += 1
            case .rejected: result.rejected += 1
            case .failed(let reason), .timedOut(let reason): result.stoppedBecause = .failed(reason)
            case .unauthorized: result.stoppedBecause = .unauthorized
            }
            if result.stoppedBecause != nil { break }
            handled += 1
        }
        do {
            if handled > 0 { try files.rewriteLegacySpool(Array(lines.dropFirst(handled))) }
        } catch {
            result.stoppedBecause = .cannotSave("\(files.legacySpool.path): \(error)")
        }
        result.remaining = lines.count - handled
        return result
    }
}
