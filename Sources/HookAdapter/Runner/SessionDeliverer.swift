import FleetCore
import Foundation

/// Takes one session's turn: reduces its recorded events into its record, in recording order, and
/// delivers the record's reports oldest first.
///
/// One process at a time per session (its lock); other sessions never wait. A hook only tries the
/// turn: when another process has it, the event stays recorded and that process takes it, because a
/// deliverer looks at the inbox again after letting go of the turn.
public struct SessionDeliverer: Sendable {
    public var files: HookFiles
    public var delivery: any ReportDelivery
    /// Seconds one request may take at most; the deadline may cut it shorter.
    public var requestTimeout: Double
    /// Unix seconds now, for the slow-server pause; nil ignores the pause (the server's own intake).
    public var now: UnixTime?
    /// ``TokenFingerprint`` of the token deliveries carry; nil when the delivery needs none (the
    /// server's intake). Reports wait, untried, while the server has refused this very token.
    public var tokenFingerprint: String?

    public init(
        files: HookFiles, delivery: any ReportDelivery, requestTimeout: Double = SpoolDrainer.requestTimeout,
        now: UnixTime? = nil, tokenFingerprint: String? = nil
    ) {
        self.files = files
        self.delivery = delivery
        self.requestTimeout = requestTimeout
        self.now = now
        self.tokenFingerprint = tokenFingerprint
    }

    /// Under this much time left, a request is not worth starting.
    static let minimumRequestTime = 0.02

    /// Reduces and delivers session `key` until nothing is pending, a delivery fails, or `deadline`
    /// passes. `waitForTurn` waits (bounded by the deadline) instead of leaving when the turn is taken.
    public func deliver(_ key: String, deadline: HookDeadline, waitForTurn: Bool = false) async -> SpoolDrainer.Result {
        var result = SpoolDrainer.Result()
        // `lfg-hook` records without creating hook-sessions/ (where the turn's lock lives): whoever
        // delivers first does.
        do {
            try files.prepare()
        } catch {
            result.stoppedBecause = .cannotSave("\(error)")
            result.remaining = files.inbox.entries(key).count
            return result
        }
        while true {
            let lockPath = files.sessionLock(key)
            guard let turn = waitForTurn ? FileLock.acquire(lockPath, until: deadline) : FileLock.tryAcquire(lockPath) else {
                result.stoppedBecause = .anotherProcessDelivers
                result.remaining += files.inbox.entries(key).count
                return result
            }
            var record = files.loadRecord(key)
            do {
                try take(key, into: &record)
            } catch {
                turn.release()
                result.stoppedBecause = .cannotSave("\(error)")
                result.remaining = files.inbox.entries(key).count + record.outbox.count
                return result
            }
            let before = record.outbox
            let stop = await send(&record, deadline: deadline, result: &result)
            if record.outbox != before {
                do { try files.saveRecord(record, for: key) } catch { result.stoppedBecause = .cannotSave("\(error)") }
            }
            if record.outbox.isEmpty { files.inbox.removeFolderIfDone(key, now: Date().timeIntervalSince1970) }
            turn.release()
            result.stoppedBecause = result.stoppedBecause ?? stop
            let arrived = files.inbox.entries(key).count
            result.remaining = record.outbox.count + arrived
            // Events recorded while this process had the turn were left to it: take them too.
            guard stop == nil, arrived > 0, !deadline.hasPassed else { return result }
        }
    }

    /// Moves the session's recorded events into its record (reduced, reports numbered) and out of the inbox.
    func take(_ key: String, into record: inout SessionRecord) throws {
        let entries = files.inbox.entries(key)
        let taken = Set(record.taken)
        // Entries a killed process had already reduced and saved, but not yet deleted.
        files.inbox.remove(key, entries.filter { taken.contains($0) })
        let fresh = entries.filter { !taken.contains($0) }
        guard !fresh.isEmpty || !record.taken.isEmpty else { return }
        for entry in fresh {
            // A damaged entry can never become a report; it is dropped with the rest.
            guard let data = files.inbox.read(key, entry),
                let recorded = RecordedEvent.decode(String(decoding: data, as: UTF8.self))
            else { continue }
            record.reduce(recorded.event, host: recorded.host)
        }
        record.taken = fresh
        try files.saveRecord(record, for: key)
        files.inbox.remove(key, fresh)
        record.taken = []
    }

    /// Runs a marker write; a failure is kept in `result` for `lfg hook` to say, never dropped.
    private func noteFailure(in result: inout SpoolDrainer.Result, _ write: () throws -> Void) {
        do { try write() } catch { result.markerFailures.append("\(error)") }
    }

    /// Delivers the outbox oldest first; returns why it stopped early, or nil when it emptied it.
    func send(_ record: inout SessionRecord, deadline: HookDeadline, result: inout SpoolDrainer.Result) async -> DeliveryStop? {
        guard !record.outbox.isEmpty else { return nil }
        if let now, let until = files.pausedUntil(), now < until { return .serverPaused(until: until) }
        if let tokenFingerprint, files.refusedToken() == tokenFingerprint { return .unauthorized }
        var stop: DeliveryStop?
        while let report = record.outbox.first {
            let left = deadline.remainingSeconds
            guard left >= Self.minimumRequestTime else {
                stop = .outOfTime
                break
            }
            let outcome = await delivery.deliver(report, timeout: min(requestTimeout, left))
            switch outcome {
            case .delivered: result.delivered += 1
            case .rejected: result.rejected += 1
            case .failed(let reason): stop = .failed(reason)
            case .timedOut(let reason):
                stop = .failed(reason)
                if let now { noteFailure(in: &result) { try files.pause(until: now + SpoolDrainer.slowServerPause) } }
            case .unauthorized:
                stop = .unauthorized
                // A marker that could not be written costs one more 401 next call: counted and said, not fatal.
                if let tokenFingerprint { noteFailure(in: &result) { try files.setRefusedToken(tokenFingerprint) } }
            }
            if stop != nil { break }
            record.outbox.removeFirst()
        }
        if result.delivered + result.rejected > 0 {
            noteFailure(in: &result) { try files.pause(until: nil) }
            if files.refusedToken() != nil { noteFailure(in: &result) { try files.setRefusedToken(nil) } }
        }
        return stop
    }
}

/// A short, one-way name for a token, so `$LFG_HOME` can remember "the server refused this token"
/// without keeping the token (FNV-1a, 64 bits, hex).
public enum TokenFingerprint {
    public static func of(_ token: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (token ?? "").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
