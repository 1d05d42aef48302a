import Glibc
import HTTP2Wire
import Testing

/// A connection closed on one thread must never touch its descriptor number again: another thread may
/// already have opened a socket under that number. The bug this pins down: the stand-in dropped a
/// connection inside a session callback, its read loop read once more, and took the bytes of the APNs
/// client's brand-new connection (whose session then saw a PROTOCOL_ERROR, and whose push was resent
/// and accepted twice; about 1 round in 400 under load).
@Suite struct ConnectionReuseTests {
    /// A connected pair of stream sockets.
    func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    @Test("After close, a TCPSocket neither reads nor writes the descriptor number, even when it is reused")
    func closedSocketLeavesReusedDescriptorAlone() throws {
        let (old, oldPeer) = try socketPair()
        let socket = TCPSocket(adopting: old)
        // The next owner's pair is made while `old` is still open, so neither of its numbers is `old`.
        let (fresh, freshPeer) = try socketPair()
        socket.close()
        close(oldPeer)
        // Another socket takes the very same number (as a socket opened on another thread would).
        try #require(dup2(fresh, old) == old)
        close(fresh)
        defer { close(old); close(freshPeer) }
        _ = [UInt8]("for the new owner".utf8).withUnsafeBytes { send(freshPeer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }

        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(buffer.withUnsafeMutableBytes { socket.read(into: $0) } == .closed)
        #expect([UInt8]("stray".utf8).withUnsafeBytes { socket.write($0) } == .closed)
        // The new owner still gets every byte, and nothing was written to its peer.
        #expect(buffer.withUnsafeMutableBytes { recv(old, $0.baseAddress, $0.count, 0) } == 17)
        #expect(buffer.withUnsafeMutableBytes { recv(freshPeer, $0.baseAddress, $0.count, 0) } == -1)
    }

    /// A stream that serves scripted reads and counts every call made after it was closed.
    final class ScriptedStream: ByteStream {
        var reads: [[UInt8]]
        var isClosed = false
        var callsAfterClose = 0
        let descriptor: Int32 = -1

        init(reads: [[UInt8]]) { self.reads = reads }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamResult {
            if isClosed { callsAfterClose += 1 }
            guard !reads.isEmpty else { return .wouldBlock(wantsWrite: false) }
            let chunk = reads.removeFirst()
            buffer.copyBytes(from: chunk)
            return .bytes(chunk.count)
        }

        func write(_ bytes: UnsafeRawBufferPointer) -> StreamResult {
            if isClosed { callsAfterClose += 1 }
            return .bytes(bytes.count)
        }

        func close() { isClosed = true }
    }

    /// A server that drops the connection as soon as a request's headers arrive (the stand-in's fault).
    final class DroppingServer: HTTP2SessionDelegate {
        var connection: HTTP2Connection?
        func http2Header(stream: Int32, name: HeaderBytes, value: HeaderBytes) {
            connection?.close(reason: "dropped on purpose")
        }
        func http2Data(stream: Int32, bytes: UnsafeRawBufferPointer) {}
        func http2EndStream(stream: Int32) {}
        func http2StreamClosed(stream: Int32, errorCode: UInt32) {}
        func http2GoAway(lastStreamID: Int32, errorCode: UInt32, debugData: [UInt8]) {}
        func http2SettingsReceived() {}
    }

    @Test("A connection closed inside a session callback stops reading and writing at once")
    func closedInsideCallbackStopsAtOnce() throws {
        // A real client's bytes: preface, SETTINGS and one request.
        let client = try HTTP2Session(role: .client)
        _ = client.submitRequest(headers: [HTTP2Header(":method", "GET"), HTTP2Header(":scheme", "http"),
                                           HTTP2Header(":authority", "localhost"), HTTP2Header(":path", "/")], body: [])
        var request: [UInt8] = []
        #expect(client.drainOutput(into: &request, limit: 1 << 16))
        // Then more bytes that belong to whoever owns the descriptor next.
        let stream = ScriptedStream(reads: [request, Array("someone else's bytes".utf8)])
        let server = DroppingServer()
        let connection = HTTP2Connection(stream: stream, session: try HTTP2Session(role: .server))
        server.connection = connection
        connection.session.delegate = server

        #expect(connection.service() == false)
        #expect(connection.endReason == "dropped on purpose")
        #expect(stream.callsAfterClose == 0)
        #expect(stream.reads.count == 1, "the next owner's bytes stay unread")
    }
}
