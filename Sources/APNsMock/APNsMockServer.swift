import APNs
import Dispatch
import FleetCore
import Foundation
import HTTP2Wire
import Synchronization

/// The local APNs stand-in: HTTP/2 (h2c with prior knowledge, or TLS with ALPN h2) on loopback,
/// verifying provider tokens and answering per programmed token behaviour.
///
/// Start it on port 0 in tests, program it through ``state``, read ``MockState/records``, then ``stop()``.
public final class APNsMockServer: Sendable {
    /// The bound port.
    public let port: UInt16
    /// The certificate clients must trust (its own CA) when started with TLS.
    public let certificatePEM: String?
    /// Behaviours, faults and records.
    public let state: MockState
    private let wakeup: Wakeup
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let accepted = Atomic<Int>(0)

    /// `http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`.
    public var baseURL: String { (certificatePEM == nil ? "http" : "https") + "://127.0.0.1:\(port)" }

    /// Connections accepted so far.
    public var connectionsAccepted: Int { accepted.load(ordering: .relaxed) }

    /// Starts listening on `127.0.0.1:port` (0 = any free port) and serving on a dedicated thread.
    ///
    /// - Parameters:
    ///   - verifier: checks a provider token and returns its claims; nil accepts any well-formed ES256 JWT.
    ///   - bundleID: when set, topics must be this bundle id with the push type's suffix.
    ///   - channelLimit: live channels allowed before creates answer `CannotCreateChannelConfig` (APNs: 10,000).
    ///   - onRecord: called with every record (for printing); runs on the server thread.
    ///
    /// One port serves every API: device pushes, broadcasts and channel management (point all four
    /// `LFG_APNS_*_URL` settings of an environment at ``baseURL``).
    public init(
        port: UInt16 = 0, tls: Bool = false, verifier: (@Sendable (String) -> ProviderTokenClaims?)? = nil,
        bundleID: BundleID? = nil, clock: WallClock = .system, channelLimit: Int = MockState.defaultChannelLimit,
        onRecord: (@Sendable (MockRecord) -> Void)? = nil
    ) throws(WireError) {
        let (listener, boundPort) = try TCPSocket.listen(port: port)
        var tlsContext: TLSContext?
        if tls {
            let certificate = try SelfSignedCertificate.make()
            tlsContext = try TLSContext.server(certificatePEM: certificate.certificatePEM, keyPEM: certificate.keyPEM)
            certificatePEM = certificate.certificatePEM
        } else {
            certificatePEM = nil
        }
        self.port = boundPort
        state = MockState(verifier: verifier, bundleID: bundleID, clock: clock, onRecord: onRecord)
        state.channelLimit = channelLimit
        wakeup = try Wakeup()
        let loop = MockServerLoop(listener: listener, tls: tlsContext, state: state)
        let box = LoopBox(loop)
        Thread { [self] in
            box.loop.run(wakeup: wakeup, stopping: stopping, accepted: accepted)
            finished.signal()
        }.start()
    }

    /// Stops serving and closes every connection; returns once the thread has finished. Idempotent.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeup.signal()
        finished.wait()
    }
}

/// Hands the loop to its thread. `@unchecked Sendable`: the loop is touched only by that thread after this.
private final class LoopBox: @unchecked Sendable {
    let loop: MockServerLoop
    init(_ loop: MockServerLoop) { self.loop = loop }
}

/// The server's poll loop. Confined to its thread.
final class MockServerLoop {
    let listener: TCPSocket
    let tls: TLSContext?
    let state: MockState
    var connections: [MockConnection] = []
    var nextNumber = 1

    init(listener: TCPSocket, tls: TLSContext?, state: MockState) {
        self.listener = listener
        self.tls = tls
        self.state = state
    }

    func run(wakeup: Wakeup, stopping: borrowing Atomic<Bool>, accepted: borrowing Atomic<Int>) {
        while !stopping.load(ordering: .acquiring) {
            var polls = PollSet()
            polls.add(wakeup.descriptor, read: true, write: false)
            polls.add(listener.descriptor, read: true, write: false)
            // A silent connection (fault) is neither read nor written: to the client it is a dead peer.
            let serviced = connections.filter { !$0.isSilent }
            for connection in serviced {
                polls.add(connection.connection.descriptor, read: true, write: connection.connection.pollsForWrite)
            }
            polls.wait(timeoutMilliseconds: 1000)
            if polls.isReadable(0) { wakeup.drain() }
            for (index, connection) in serviced.enumerated()
            where polls.isReadable(index + 2) || polls.isWritable(index + 2) {
                connection.connection.service()
            }
            if polls.isReadable(1) { acceptAll(accepted: accepted) }
            connections.removeAll { $0.connection.isEnded }
        }
        for connection in connections { connection.connection.close(reason: "the stand-in stopped") }
        connections.removeAll()
        listener.close()
    }

    private func acceptAll(accepted: borrowing Atomic<Int>) {
        while let socket = listener.accept() {
            do {
                let stream: any ByteStream = try tls.map { try TLSStream(socket: socket, context: $0, serverName: nil) } ?? socket
                let connection = try MockConnection(number: nextNumber, stream: stream, state: state)
                nextNumber += 1
                accepted.add(1, ordering: .relaxed)
                connections.append(connection)
                connection.connection.service()
            } catch {
                socket.close()
            }
        }
    }
}
