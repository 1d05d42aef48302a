import ControlPlane
import FleetCore
import Foundation
import Synchronization

/// LISTEN on the coordination channels, on a connection and a thread of its own (libpq blocks), turning
/// each NOTIFY into a ``CoordinationNotice``.
///
/// NOTIFY is not replayed: while the connection is down notifications are lost, so after re-opening it
/// yields ``CoordinationNotice/resumed`` and the owner catches up by reading. The notice buffer is bounded
/// (newest kept); a dropped notice costs only latency, since every lease round reads what it would have said.
final class PostgresListener: Sendable {
    let notices: AsyncStream<CoordinationNotice>
    private let continuation: AsyncStream<CoordinationNotice>.Continuation
    private let isStopped = Atomic<Bool>(false)
    private let isListeningNow = Atomic<Bool>(false)
    /// Whether the channels are being listened to now (false before the first LISTEN and while re-opening).
    var isListening: Bool { isListeningNow.load(ordering: .sequentiallyConsistent) }
    static let bufferLimit = 4096
    /// How long one wait for input lasts, which bounds how long a stop takes.
    static let pollMilliseconds: Int32 = 200

    init(url: String, options: String, schema: String, reportProblem: @escaping @Sendable (String) -> Void) {
        (notices, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let continuation = continuation
        let thread = Thread { [self] in
            listen(
                url: url, options: options, channels: CoordinationChannels(schema: schema), continuation: continuation,
                reportProblem: reportProblem)
        }
        thread.name = "lfg-postgres-listen"
        thread.start()
    }

    /// Ends the stream and lets the thread close its connection (within ``pollMilliseconds``).
    func stop() {
        isStopped.store(true, ordering: .sequentiallyConsistent)
        continuation.finish()
    }

    private func listen(
        url: String, options: String, channels: CoordinationChannels,
        continuation: AsyncStream<CoordinationNotice>.Continuation,
        reportProblem: @Sendable (String) -> Void
    ) {
        var connection: PostgresConnection?
        var isFirst = true
        while !isStopped.load(ordering: .sequentiallyConsistent) {
            do {
                if connection == nil || connection?.isOpen == false {
                    isListeningNow.store(false, ordering: .sequentiallyConsistent)
                    connection = try Self.open(connection, url: url, options: options, channels: channels)
                    isListeningNow.store(true, ordering: .sequentiallyConsistent)
                    if !isFirst { continuation.yield(.resumed) }
                    isFirst = false
                }
                for notification in try connection!.awaitNotifications(milliseconds: Self.pollMilliseconds) {
                    if let notice = channels.notice(notification.channel, notification.payload) {
                        continuation.yield(notice)
                    }
                }
            } catch {
                reportProblem("listening for other instances' changes: \(error); retrying (lease rounds catch up meanwhile)")
                // Not a busy loop: one wait per poll period before the next try.
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, Self.pollMilliseconds * 5)
            }
        }
    }

    private static func open(
        _ old: PostgresConnection?, url: String, options: String, channels: CoordinationChannels
    ) throws(StoreError) -> PostgresConnection {
        let connection: PostgresConnection
        if let old, old.reopen() { connection = old } else { connection = try PostgresConnection(url: url, options: options) }
        try connection.execute("LISTEN \(channels.fleet); LISTEN \(channels.inbox); LISTEN \(channels.accounts)")
        return connection
    }
}

/// The NOTIFY channels of one schema (channels are per database, so tests in their own schemas stay apart),
/// and their payloads: written and read here only.
struct CoordinationChannels: Sendable {
    /// An account's sessions, hosts or questions changed (payload: "<account> <revision>").
    let fleet: String
    /// A device write was queued (payload: "<account> <device id>").
    let inbox: String
    /// An account was made or revoked (payload: the account).
    let accounts: String

    init(schema: String) {
        fleet = "lfg_fleet_" + schema
        inbox = "lfg_inbox_" + schema
        accounts = "lfg_accounts_" + schema
    }

    /// The inbox payload for `device` (account names never hold a space; device ids may).
    static func inboxPayload(_ device: LeasedDevice) -> String { "\(device.account) \(device.device)" }

    /// What a notification on `channel` says; nil for a channel or payload this version does not know.
    func notice(_ channel: String, _ payload: String) -> CoordinationNotice? {
        let account = payload.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        switch channel {
        case fleet: return account.first.map { .fleetChanged(AccountID(String($0))) }
        case inbox:
            guard account.count == 2 else { return nil }
            return .inboxPosted(LeasedDevice(AccountID(String(account[0])), DeviceID(String(account[1]))))
        case accounts: return .accountsChanged
        default: return nil
        }
    }
}
