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
    func markCompleted() { completion.fire() }

    /// Returns once libmicrohttpd is done with the request, so shutdown never cuts an answer short.
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
