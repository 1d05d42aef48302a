import FleetApp
import Foundation
import HTTPClient

/// The app's two network edges over the package's libcurl client, for tests against a real server on
/// loopback. (The phone uses URLSession; on Linux, FoundationNetworking's URLSession can abort the
/// process, see reference/platform-notes.md 4.5, so the tests do not run it.)
struct HTTPClientControlPlaneClient: ControlPlaneClient {
    let client: HTTPClient

    func perform(_ call: ControlPlaneCall, on server: ServerProfile) async throws(ControlPlaneError)
        -> ControlPlaneReply
    {
        let request = try call.httpRequest(bearerToken: server.bearerToken)
        let headers = request.headers.map { (name: $0.key, value: $0.value) }
        let response: HTTPClientResponse
        do {
            response = try await client.send(HTTPClientRequest(
                method: call.method, url: server.baseURL + call.path, headers: headers, body: request.body,
                timeout: .seconds(5)))
        } catch {
            throw .unreachable("\(error)")
        }
        return try call.reply(status: response.status, body: response.body)
    }
}

/// ``EventStreamTransport`` over libcurl: the same signals ``URLSessionEventStream`` gives on the phone.
struct HTTPClientEventStream: EventStreamTransport {
    let client: HTTPClient

    func events(on server: ServerProfile) -> AsyncStream<EventStreamSignal> {
        let client = client
        let (signals, continuation) = AsyncStream.makeStream(of: EventStreamSignal.self)
        let reader = Task {
            let request = HTTPClientRequest(
                url: server.baseURL + eventStreamPath,
                headers: [("Authorization", "Bearer \(server.bearerToken)"), ("Accept", "text/event-stream")],
                timeout: .seconds(5))
            let stream: HTTPClientStream
            do {
                stream = try await client.openStream(request)
            } catch {
                continuation.yield(.ended(.unreachable("\(error)")))
                continuation.finish()
                return
            }
            guard stream.status == 200 else {
                stream.cancel()
                continuation.yield(.ended(.rejected(status: stream.status, message: "GET /api/events")))
                continuation.finish()
                return
            }
            continuation.yield(.opened)
            do {
                for try await chunk in stream.chunks { continuation.yield(.bytes([UInt8](chunk))) }
                continuation.yield(.ended(nil))
            } catch {
                continuation.yield(.ended(.unreachable("\(error)")))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in reader.cancel() }
        return signals
    }
}
