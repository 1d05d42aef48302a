internal import CMicroHTTPD
import Foundation
import HTTPTypes
import Synchronization

/// What libmicrohttpd's callbacks reach through their context pointer: the handler, the limits and
/// the hand-off to handler tasks. Lives as long as the `HTTPServer`, which stops the daemon first.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let admission = Admission()
    let connections: ConnectionGuard
    /// Requests handed to handler tasks and not yet completed by libmicrohttpd; shutdown waits for them.
    let inFlight = InFlightRequests()

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        connections = ConnectionGuard(limits: .init(
            total: Int(configuration.connectionLimit), perClient: Int(configuration.perClientConnectionLimit),
            headerDeadline: configuration.headerDeadline))
    }

    /// Closes connections whose headers are overdue, checking a few times per deadline, until cancelled.
    func closeOverdueHeaders() async {
        let interval = min(.seconds(1), configuration.headerDeadline / 4)
        while (try? await Task.sleep(for: interval)) != nil { connections.shutOverdue() }
    }

    /// The longest request target accepted; a longer one is answered 414 with the contract's error body.
    static let maxURLBytes = 8 * 1024

    /// One access-handler call (see libmicrohttpd's `MHD_AccessHandlerCallback`): the first call per
    /// request sees only headers, then body slices arrive, then a final call with no data.
    func handleAccess(
        connection: OpaquePointer, url: String, method: String, upload: UnsafeRawBufferPointer,
        uploadSize: UnsafeMutablePointer<Int>, contextSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = contextSlot.pointee else {
            connections.headersArrived(connection)
            let context = RequestContext(method: method, rawPath: url, connection: connection)
            contextSlot.pointee = Unmanaged.passRetained(context).toOpaque()
            if let refusal = Self.refusal(url: url, connection: connection) {
                _ = context.exchange(.answered)
                return Self.queue(refusal, stream: nil, on: connection)
            }
            // Refuse a declared oversize body before reading it; the handler never sees it.
            if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
                let length = Int(String(cString: declared)), length > configuration.maxBodyBytes
            {
                _ = context.exchange(.answered)
                return Self.queue(tooLarge, stream: nil, on: connection)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            context.appendBody(upload, limit: configuration.maxBodyBytes)
            uploadSize.pointee = 0
            return .YES
        }
        switch context.exchange(.waiting) {
        case .receiving(let body, let isTooLarge):
            if isTooLarge {
                _ = context.exchange(.answered)
                return Self.queue(tooLarge, stream: nil, on: connection)
            }
            let request = HTTPRequest(
                method: context.method, path: ConnectionValues.decoded(context.rawPath),
                query: ConnectionValues.query(of: connection), headers: ConnectionValues.headers(of: connection),
                body: body, remoteAddress: ConnectionValues.peerAddress(of: connection), rawPath: context.rawPath)
            let isSubmitted = admission.submit(context, request) {
                MHD_suspend_connection(connection)
            } accepted: {
                context.markHandedOff()
                inFlight.began()
            }
            if !isSubmitted {
                // Shutting down: answer the (already suspended) request on the next call. Not counted in
                // `inFlight`: shutdown must not wait on clients that keep sending.
                _ = context.exchange(.ready(Self.shuttingDown, nil))
                MHD_resume_connection(connection)
            }
            return .YES
        case .waiting:
            return .YES  // a spurious call while the handler runs
        case .ready(let response, let stream):
            _ = context.exchange(.answered)
            return Self.queue(response, stream: stream, on: connection)
        case .answered:
            _ = context.exchange(.answered)
            return .YES
        }
    }

    /// The answer to a request refused on its headers alone, so libmicrohttpd's own HTML answers never
    /// come into play: a chunked body (whose framing libmicrohttpd would judge) and an over-long URL.
    static func refusal(url: String, connection: OpaquePointer) -> HTTPResponse? {
        if url.utf8.count > maxURLBytes {
            return .error(414, "the URL is over \(maxURLBytes) bytes; send a shorter one")
        }
        if MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil {
            return .error(411, "chunked request bodies are not accepted; send the body with Content-Length")
        }
        return nil
    }

    /// Runs the handler for one suspended request and resumes the connection with its answer. A whole-body
    /// answer returns at once (libmicrohttpd sends it; shutdown waits on ``inFlight`` until it is sent);
    /// a streaming answer pumps the producer's chunks until it finishes or the client goes away, and
    /// returns only when libmicrohttpd is done with the request.
    func serve(_ submission: Admission.Submission) async {
        let context = submission.context
        guard admission.claim(context) else { return }
        let response = await handler.respond(to: submission.request)
        if case .stream(let source) = response.body {
            let stream = ResponseStream(
                connection: context.connection, limit: configuration.maxStreamBufferBytes)
            context.attach(stream)
            _ = context.exchange(.ready(response, stream))
            MHD_resume_connection(context.connection.value)
            await Self.pump(source, into: stream)
            await context.waitUntilCompleted()
        } else {
            _ = context.exchange(.ready(response, nil))
            MHD_resume_connection(context.connection.value)
        }
    }

    /// Answers the requests no handler task took (shutdown), so no connection stays suspended.
    func answerUnclaimed() {
        for context in admission.close() {
            _ = context.exchange(.ready(Self.shuttingDown, nil))
            MHD_resume_connection(context.connection.value)
        }
    }

    private var tooLarge: HTTPResponse {
        .error(413, "request body is over \(configuration.maxBodyBytes) bytes; send a smaller body")
    }

    private static let shuttingDown = HTTPResponse.error(503, "the server is shutting down; retry in a moment")

    /// Copies chunks from `source` into `stream` until the connection closes. When the client
    /// disconnects first, or falls more than the stream's limit behind, the copy is cancelled, which
    /// terminates the producer's stream (its `onTermination` runs); when the producer finishes first,
    /// this waits until the end is sent.
    private static func pump(_ source: AsyncStream<Data>, into stream: ResponseStream) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await chunk in source where !stream.append(chunk) {
                    // The client is gone or fell too far behind: iterate on as cancelled, which ends
                    // the loop and terminates the producer's stream (its subscriber is released now).
                    withUnsafeCurrentTask { $0?.cancel() }
                }
                stream.finish()
            }
            group.addTask { await stream.waitUntilClosed() }
            await group.next()
            group.cancelAll()
        }
    }

    private static func queue(_ response: HTTPResponse, stream: ResponseStream?, on connection: OpaquePointer)
        -> MHD_Result
    {
        let created: OpaquePointer?
        switch response.body {
        case .bytes(let data):
            created = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream:
            guard let stream else { return .NO }
            let retained = Unmanaged.passRetained(stream)
            created = MHD_create_response_from_callback(
                UInt64.max, 16 * 1024, streamReader, retained.toOpaque(), streamReleased)
            if created == nil {
                stream.close()
                retained.release()
            }
        }
        guard let created else { return .NO }
        for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
        let result = MHD_queue_response(connection, UInt32(clamping: response.status), created)
        MHD_destroy_response(created)
        return result
    }
}
