import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
import Testing

@Suite struct HTTPClientTests {
    @Test("A request to a port nobody listens on fails at once with couldNotConnect")
    func serverDownFailsFast() async throws {
        // Bind a server to learn a free port, then stop it, so nothing listens there.
        let port: UInt16
        do {
            let server = HTTPServer(configuration: .init(port: 0), handler: HandlerFunction { _ in .json([0]) })
            port = try server.start()
        }
        let client = HTTPClient()
        await #expect(throws: HTTPClientError.self) {
            _ = try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/", timeout: .milliseconds(300)))
        }
        do {
            _ = try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/", timeout: .milliseconds(300)))
        } catch {
            guard case .couldNotConnect = error else {
                Issue.record("expected couldNotConnect, got \(error)")
                return
            }
        }
    }

    @Test("A URL libcurl cannot use is reported as invalid")
    func invalidURLIsReported() async throws {
        let client = HTTPClient()
        do {
            _ = try await client.send(HTTPClientRequest(url: "nope://x"))
            Issue.record("expected a failure")
        } catch {
            #expect(error == .invalidURL("nope://x"))
        }
    }
}
