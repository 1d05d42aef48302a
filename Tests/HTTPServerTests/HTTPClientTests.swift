import Foundation
import HTTPClient
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct HTTPClientTests {
    @Test("A request to a port nobody listens on fails at once with couldNotConnect")
    func serverDownFailsFast() async throws {
        let (socket, port) = try RawSocket.refusingPort()
        defer { close(socket) }
        let client = HTTPClient()
        await #expect(throws: HTTPClientError.self) {
            _ = try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/", timeout: .seconds(10)))  // refusal is immediate; the long timeout keeps a loaded run from reading it as a timeout
        }
        do {
            _ = try await client.send(HTTPClientRequest(url: "http://127.0.0.1:\(port)/", timeout: .seconds(10)))  // refusal is immediate; the long timeout keeps a loaded run from reading it as a timeout
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
