import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes
import Testing

@Suite struct HTTPServerTests {
    let client = HTTPClient()
    static let concurrentCount = Int(ProcessInfo.processInfo.environment["LFG_TEST_CONCURRENT"] ?? "") ?? 40

    @Test("A GET reaches the handler with a decoded path, query, lower-cased headers and the peer address")
    func getRequestIsParsed() async throws {
        let seen = Recorder<HTTPRequest>()
        let handler = HandlerFunction { request in
            seen.record(request)
            return .json(["ok": true])
        }
        try await withServer(handler: handler) { base in
            let response = try await client.send(
                HTTPClientRequest(url: "\(base)/api/sessions/a%20b?x=1&name=c%2Fd", headers: [("X-Custom", "Yes")]))
            #expect(response.status == 200)
            #expect(response.header("content-type") == "application/json")
            #expect(try JSONDecoder().decode([String: Bool].self, from: response.body) == ["ok": true])
        }
        let request = try #require(seen.all.first)
        #expect(request.method == "GET")
        #expect(request.path == "/api/sessions/a b")
        #expect(request.query == ["x": "1", "name": "c/d"])
        #expect(request.headers["x-custom"] == "Yes")
        #expect(request.remoteAddress == "127.0.0.1")
        #expect(request.body.isEmpty)
    }

    @Test("A POST body larger than one read slice arrives whole")
    func postBodyArrivesWhole() async throws {
        let body = Data((0..<60_000).map { UInt8($0 % 251) })
        let handler = HandlerFunction { request in
            HTTPResponse(status: 201, headers: [("Content-Type", "application/octet-stream")], body: .bytes(request.body))
        }
        try await withServer(handler: handler) { base in
            let response = try await client.send(HTTPClientRequest(method: "POST", url: "\(base)/echo", body: body))
            #expect(response.status == 201)
            #expect(response.body == body)
        }
    }

    @Test("A body over the limit is answered 413 with the error shape and never reaches the handler")
    func oversizeBodyIsRefused() async throws {
        let calls = Recorder<String>()
        let handler = calls.pathRecorder
        try await withServer(maxBodyBytes: 1_000, handler: handler) { base in
            let over = try await client.send(
                HTTPClientRequest(method: "PUT", url: "\(base)/big", body: Data(count: 1_001)))
            #expect(over.status == 413)
            let error = try JSONDecoder().decode(ErrorBody.self, from: over.body)
            #expect(error.error.contains("1000 bytes"))
            let atLimit = try await client.send(
                HTTPClientRequest(method: "PUT", url: "\(base)/fits", body: Data(count: 1_000)))
            #expect(atLimit.status == 200)
        }
        #expect(calls.all == ["/fits"])
    }

    @Test("A chunked body is answered 411 with the error shape, before any of its framing is read")
    func chunkedBodyIsRefused() async throws {
        let calls = Recorder<String>()
        let handler = calls.pathRecorder
        try await withServer(maxBodyBytes: 1_000, handler: handler) { base in
            let response = try await client.send(
                HTTPClientRequest(
                    method: "POST", url: "\(base)/chunked", headers: [("Transfer-Encoding", "chunked")],
                    body: Data(count: 5_000)))
            #expect(response.status == 411)
            #expect(response.header("content-type") == "application/json")
            #expect(try JSONDecoder().decode(ErrorBody.self, from: response.body).error.contains("Content-Length"))
        }
        #expect(calls.all.isEmpty)
    }

    @Test("Many concurrent requests each get their own answer")
    func concurrentRequestsAreAnswered() async throws {
        let handler = HandlerFunction { request in
            await Task.yield()
            return HTTPResponse(status: 200, body: .bytes(Data(request.path.utf8)))
        }
        try await withServer(handler: handler) { base in
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in 0..<Self.concurrentCount {
                    group.addTask {
                        let response = try await client.send(HTTPClientRequest(url: "\(base)/r/\(index)"))
                        return (index, response.text)
                    }
                }
                var answered = 0
                for try await (index, text) in group {
                    #expect(text == "/r/\(index)")
                    answered += 1
                }
                #expect(answered == Self.concurrentCount)
            }
        }
    }

    @Test("Malformed requests never reach the handler and the server keeps serving", arguments: [
        "BROKEN\r\n\r\n",
        "GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n",
        "GET /x HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n",
        "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func malformedRequestDoesNotStopTheServer(raw: String) async throws {
        let calls = Recorder<String>()
        let handler = calls.pathRecorder
        try await withServer(handler: handler) { base in
            let port = try #require(base.split(separator: ":").last.flatMap { UInt16($0) })
            let reply = try RawSocket.exchange(port: port, bytes: raw)
            #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 4"), "reply: \(reply)")
            let response = try await client.send(HTTPClientRequest(url: "\(base)/healthz"))
            #expect(response.status == 200)
        }
        #expect(calls.all == ["/healthz"])
    }
}
