/// One HTTP/2 connection: a byte stream (plain or TLS) pumped through an ``HTTP2Session``.
///
/// Confined to the thread that polls it. The owner polls ``descriptor`` for ``pollsForWrite`` and
/// calls ``service()`` whenever it is ready (or after submitting frames).
public final class HTTP2Connection {
    public let stream: any ByteStream
    public let session: HTTP2Session
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var input = [UInt8](repeating: 0, count: 1 << 16)
    private var readBlockedOnWrite = false
    /// Why the connection ended, once it has.
    public private(set) var endReason: String?
    /// Bytes read from the peer so far: an owner that sees it grow knows the peer is alive.
    public private(set) var bytesReceived = 0
    /// Set to stop all reading and writing at once, even inside the current ``service()`` call, while the
    /// socket stays open: a peer that went silent (the stand-in's dead-connection fault).
    public var isFrozen = false

    /// Output is batched up to this many bytes per write, so 500 small frames cost one syscall.
    static let writeBatch = 1 << 16

    public init(stream: any ByteStream, session: HTTP2Session) {
        self.stream = stream
        self.session = session
    }

    public var descriptor: Int32 { stream.descriptor }

    /// Whether the connection is over (peer closed, error, or both sides done).
    public var isEnded: Bool { endReason != nil }

    /// Whether the connection is usable: TLS handshake done with h2 agreed (or plain), not ended.
    public var isEstablished: Bool {
        endReason == nil && (stream as? TLSStream).map(\.isHandshakeDone) != false
    }

    /// Whether to poll for writability: output waits, or TLS needs to write to make progress.
    public var pollsForWrite: Bool {
        outputOffset < output.count || session.wantsWrite || readBlockedOnWrite
            || (stream as? TLSStream).map { !$0.isHandshakeDone } == true
    }

    /// Does all the work possible now without blocking: TLS handshake, reading, writing.
    /// Returns false once the connection has ended (see ``endReason``).
    @discardableResult
    public func service() -> Bool {
        guard endReason == nil else { return false }
        if let tls = stream as? TLSStream, !tls.isHandshakeDone {
            switch tls.handshake() {
            case .bytes:
                guard tls.negotiatedH2 else { return end("the server did not agree to HTTP/2 (ALPN h2)") }
            case .wouldBlock: return true
            case .closed: return end("the peer closed the connection during the TLS handshake")
            case .failed(let message): return end(message)
            }
        }
        guard readAll(), writeAll() else { return false }
        if !isFrozen, !session.wantsRead, !session.wantsWrite, outputOffset >= output.count {
            return end("the HTTP/2 session finished")
        }
        return true
    }

    /// Closes the socket at once; in-flight streams get no answer.
    public func close(reason: String) {
        _ = end(reason)
    }

    // Both loops stop the moment the connection has ended, even when it ended inside a session callback
    // (a server dropping a connection on a request it just read): a descriptor closed there may already be
    // reused by a socket another thread just opened, and one more read would steal that connection's bytes
    // (seen as a peer's PROTOCOL_ERROR and a push sent twice; ConnectionReuseTests).
    private func readAll() -> Bool {
        readBlockedOnWrite = false
        while !isFrozen, endReason == nil {
            let result = input.withUnsafeMutableBytes { stream.read(into: $0) }
            switch result {
            case .bytes(let count):
                bytesReceived += count
                let accepted = input.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                guard accepted else { return end("the peer broke the HTTP/2 protocol") }
                guard endReason == nil else { return false }
            case .wouldBlock(let wantsWrite):
                readBlockedOnWrite = wantsWrite
                return true
            case .closed: return end("the peer closed the connection")
            case .failed(let message): return end(message)
            }
        }
        return true
    }

    private func writeAll() -> Bool {
        while !isFrozen, endReason == nil {
            if outputOffset >= output.count {
                output.removeAll(keepingCapacity: true)
                outputOffset = 0
                guard session.drainOutput(into: &output, limit: Self.writeBatch) else {
                    return end("the HTTP/2 session failed")
                }
                if output.isEmpty { return true }
                guard endReason == nil else { return false }
            }
            let result = output.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            switch result {
            case .bytes(let count): outputOffset += count
            case .wouldBlock: return true
            case .closed: return end("the peer closed the connection")
            case .failed(let message): return end(message)
            }
        }
        return true
    }

    private func end(_ reason: String) -> Bool {
        if endReason == nil {
            endReason = reason
            stream.close()
        }
        return false
    }
}
