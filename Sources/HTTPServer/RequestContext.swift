import Foundation
import HTTPTypes
import Synchronization

/// One request's state between libmicrohttpd's access-handler calls, kept in `*req_cls`.
///
/// The access handler runs on libmicrohttpd's threads; the handler task sets `ready` and resumes the
/// connection. Everything mutable sits behind one mutex.
final class RequestContext: Sendable {
    enum Phase {
        /// Body slices are arriving; `isTooLarge` once they exceed the limit (the rest is dropped).
        case receiving(body: Data, isTooLarge: Bool)
        /// The connection is suspended while the handler task runs.
        case waiting
        /// The handler answered; the next access-handler call queues this.
        case ready(HTTPResponse, ResponseStream?)
        /// A response is queued; nothing more to do.
        case answered
    }

    let method: String
    let rawPath: String
    let connection: UncheckedSendable<OpaquePointer>
    private let phase = Mutex<Phase>(.receiving(body: Data(), isTooLarge: false))
    private let completion = Latch()
    /// Whether the request went to a handler task (counted in the server's ``InFlightRequests``).
    private let handedOff = Atomic<Bool>(false)
    /// The streaming response's bridge, once the handler answered with a stream; closed at completion.
    private let stream = Mutex<(isCompleted: Bool, stream: ResponseStream?)>((false, nil))

    init(method: String, rawPath: String, connection: OpaquePointer) {
        self.method = method
        self.rawPath = rawPath
        self.connection = UncheckedSendable(connection)
    }

    /// Appends a body slice, or marks the body too large (and drops it) once it passes `limit` bytes.
    func appendBody(_ slice: UnsafeRawBufferPointer, limit: Int) {
        phase.withLock { phase in
            guard case .receiving(var body, let isTooLarge) = phase else { return }
            if isTooLarge || body.count + slice.count > limit {
                phase = .receiving(body: Data(), isTooLarge: true)
                return
            }
            phase = .waiting  // drop the reference so the append below does not copy
            body.append(contentsOf: slice)
            phase = .receiving(body: body, isTooLarge: false)
        }
    }

    /// Called by libmicrohttpd's request-completed callback: the answer is sent or the connection is gone.
    ///
    /// Why it closes the stream too: a client that leaves while its request is suspended is found when
    /// the connection resumes, and libmicrohttpd then completes the request without ever queueing the
    /// streaming answer, so the stream's own free callback never comes. Without this its producer
    /// (an `/api/events` subscriber) would be pumped into the buffer forever and shutdown would wait on it.
    /// Returns whether the request had been handed to a handler task (``markHandedOff()``).
    func markCompleted() -> Bool {
        let attached = stream.withLock { state in
            state.isCompleted = true
            return state.stream
        }
        attached?.close()
        completion.fire()
        return handedOff.load(ordering: .acquiring)
    }

    /// Notes that the request went to a handler task; its completion then ends it in ``InFlightRequests``.
    func markHandedOff() { handedOff.store(true, ordering: .releasing) }

    /// Ties a streaming answer to this request, so the request's completion closes it
    /// (at once when the request already completed).
    func attach(_ responseStream: ResponseStream) {
        let isCompleted = stream.withLock { state in
            state.stream = responseStream
            return state.isCompleted
        }
        if isCompleted { responseStream.close() }
    }

    /// Returns once libmicrohttpd is done with the request (a streaming answer's task waits for it).
    func waitUntilCompleted() async { await completion.wait() }

    /// Moves to `next` and returns the phase before.
    func exchange(_ next: Phase) -> Phase {
        phase.withLock { phase in
            let previous = phase
            phase = next
            return previous
        }
    }
}
