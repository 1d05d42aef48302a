#if canImport(Foundation)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The phone's ``EventStreamTransport``: one URLSession data task per stream, bytes handed on as they arrive.
///
/// Thin on purpose: everything it reports is judged by ``LiveConnection``. Each stream has its own session
/// (a delegate per stream), invalidated when the stream ends or its consumer goes away.
public struct URLSessionEventStream: EventStreamTransport {
    let configuration: URLSessionConfiguration

    /// - Parameter configuration: copied per stream; the request timeout is raised so a quiet stream (a
    ///   keepalive every 15 s) is never cut by URLSession, while ``LiveConnection`` judges silence itself.
    public init(configuration: URLSessionConfiguration = .default) { self.configuration = configuration }

    public func events(on server: ServerProfile) -> AsyncStream<EventStreamSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: EventStreamSignal.self, bufferingPolicy: .unbounded)
        var request: URLRequest
        do {
            request = try server.request(path: eventStreamPath)
        } catch {
            continuation.yield(.ended(error))
            continuation.finish()
            return stream
        }
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.timeoutInterval = 24 * 3600
        let delegate = Delegate(continuation: continuation)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }

    /// Turns the task's callbacks into signals. URLSession calls it on its own serial delegate queue.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Invariant: URLSession calls these methods one at a time on its delegate queue; `continuation`
        // is itself thread-safe and never reassigned.
        let continuation: AsyncStream<EventStreamSignal>.Continuation

        init(continuation: AsyncStream<EventStreamSignal>.Continuation) { self.continuation = continuation }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
            guard status == 200, type.hasPrefix("text/event-stream") else {
                continuation.yield(.ended(.rejected(status: status, message: "GET /api/events answered \(status) \(type)")))
                continuation.finish()
                completionHandler(.cancel)
                return
            }
            continuation.yield(.opened)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield(.bytes([UInt8](data)))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            continuation.yield(.ended(error.map { .unreachable("\($0.localizedDescription)") }))
            continuation.finish()
            session.finishTasksAndInvalidate()
        }
    }
}
#endif
