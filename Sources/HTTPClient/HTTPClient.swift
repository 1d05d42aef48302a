import Foundation

/// A small HTTP/1.1 client over libcurl's multi interface, with an async API.
///
/// One dedicated thread owns the multi handle and every easy handle; callers hand requests over
/// through a mutex-protected inbox and `curl_multi_wakeup`, and get answers through continuations.
/// Each request has a total timeout; a refused connection fails at once. Cancelling the calling task
/// aborts its transfer. The thread stops when the client is deallocated (pending requests fail with
/// `.cancelled`). Use one client for many requests; it is `Sendable`.
///
/// This client does not use URLSession (see reference/platform-notes.md 4.5: with libcurl 8 it can
/// abort the process when a session is deallocated).
public final class HTTPClient: Sendable {
    private let inbox: CurlInbox

    /// Starts the client's curl thread.
    public init() {
        let engine = CurlEngine()
        let inbox = CurlInbox(multi: engine.multi)
        self.inbox = inbox
        let confined = ConfinedEngine(engine: engine)
        let thread = Thread { confined.engine.run(inbox) }
        thread.name = "lfg-http-client"
        thread.start()
    }

    deinit { inbox.stop() }

    /// Sends `request` and returns the whole response (any status); throws when no response came.
    public func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let id = inbox.makeID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let job = TransferJob(
                    id: id, request: request, delivery: UncheckedTransferDelivery(value: .whole(continuation)))
                if !inbox.submit(job) { continuation.resume(returning: .failure(.cancelled)) }
            }
        } onCancel: {
            inbox.cancel(id)
        }
        return try result.get()
    }

    /// Opens a streamed response (server-sent events): returns once the headers arrived; the body
    /// then arrives through the stream's `chunks` or `lines`. The request's timeout covers connecting only.
    public func openStream(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientStream {
        let id = inbox.makeID()
        let inbox = inbox
        let (chunks, chunkContinuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        chunkContinuation.onTermination = { reason in
            if case .cancelled = reason { inbox.cancel(id) }
        }
        let makeStream: @Sendable (Int, [(name: String, value: String)]) -> HTTPClientStream = { status, headers in
            HTTPClientStream(status: status, headers: headers, chunks: chunks, abort: { inbox.cancel(id) })
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let delivery = Transfer.Delivery.stream(
                    head: continuation, chunks: chunkContinuation, makeStream: makeStream)
                let job = TransferJob(id: id, request: request, delivery: UncheckedTransferDelivery(value: delivery))
                if !inbox.submit(job) { continuation.resume(returning: .failure(.cancelled)) }
            }
        } onCancel: {
            inbox.cancel(id)
        }
        return try result.get()
    }
}

/// Moves the engine onto its thread. Invariant: after `init` returns, only that thread touches it.
private final class ConfinedEngine: @unchecked Sendable {
    let engine: CurlEngine
    init(engine: CurlEngine) { self.engine = engine }
}
