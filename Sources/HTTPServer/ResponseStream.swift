internal import CMicroHTTPD
import Foundation
import Synchronization

/// The bridge between a streaming response's `AsyncStream<Data>` (the producer, on a Swift task) and
/// libmicrohttpd's content-reader callback (the consumer, on a libmicrohttpd thread).
///
/// When the buffer is empty the reader suspends the connection and returns 0; `append` and `finish`
/// resume it. Suspending and resuming both happen under the one mutex, so a resume is never lost.
/// `close` comes from libmicrohttpd's free callback once the connection is gone (finished or the
/// client disconnected); after it the connection pointer is never touched again.
///
/// The buffer is bounded: a reader that falls more than `limit` bytes behind is dropped (its buffered
/// bytes are discarded and the response ends), so a client that never reads costs at most `limit`.
final class ResponseStream: Sendable {
    private struct State {
        var buffer = Data()
        var isFinished = false
        var isSuspended = false
        var isClosed = false
    }

    private let connection: UncheckedSendable<OpaquePointer>
    private let limit: Int
    private let state = Mutex(State())
    private let closed = Latch()

    init(connection: UncheckedSendable<OpaquePointer>, limit: Int) {
        self.connection = connection
        self.limit = limit
    }

    /// Adds a chunk for the client; returns false once the connection is closed or the reader fell
    /// more than `limit` bytes behind (stop producing: the response ends, the client may reconnect).
    func append(_ chunk: Data) -> Bool {
        state.withLock { state in
            guard !state.isClosed, !state.isFinished else { return false }
            guard state.buffer.count + chunk.count <= limit else {
                state.buffer = Data()
                state.isFinished = true
                resumeIfSuspended(&state)
                return false
            }
            state.buffer.append(chunk)
            resumeIfSuspended(&state)
            return true
        }
    }

    /// Ends the response after the buffered bytes.
    func finish() {
        state.withLock { state in
            state.isFinished = true
            if !state.isClosed { resumeIfSuspended(&state) }
        }
    }

    /// Called by libmicrohttpd's free callback: the connection is gone.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.isSuspended = false
        }
        closed.fire()
    }

    /// Returns once libmicrohttpd is done with the stream (sent its end, or the client went away).
    func waitUntilClosed() async { await closed.wait() }

    /// The content reader: copies up to `capacity` buffered bytes into `destination`.
    /// Returns the count, 0 after suspending the connection when nothing is buffered, or -1 at the end.
    func read(into destination: UnsafeMutableRawPointer, capacity: Int) -> Int {
        state.withLock { state in
            if !state.buffer.isEmpty {
                let count = min(capacity, state.buffer.count)
                state.buffer.copyBytes(to: destination.assumingMemoryBound(to: UInt8.self), count: count)
                state.buffer.removeFirst(count)
                return count
            }
            if state.isFinished || state.isClosed { return -1 }
            state.isSuspended = true
            MHD_suspend_connection(connection.value)
            return 0
        }
    }

    private func resumeIfSuspended(_ state: inout State) {
        guard state.isSuspended else { return }
        state.isSuspended = false
        MHD_resume_connection(connection.value)
    }
}

/// libmicrohttpd's content-reader callback for streaming responses.
func streamReader(
    _ context: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int {
    guard let context, let buffer else { return -1 }
    return Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

/// libmicrohttpd's free callback for streaming responses: the connection is done with the stream.
func streamReleased(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context)
    stream.takeUnretainedValue().close()
    stream.release()
}
