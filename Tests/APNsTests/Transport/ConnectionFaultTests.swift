import APNs
import APNsHTTP2
import APNsMock
import FleetCore
import Testing

@Suite struct ConnectionFaultTests {
    /// Sends pushes to tokens 0..<count at once and returns their responses.
    func sendAll(_ sender: HTTP2PushSender, count: Int) async -> [PushResponse] {
        await withTaskGroup(of: PushResponse.self) { group in
            for index in 0..<count { group.addTask { await sender.send(MockHarness.update(index)) } }
            var responses: [PushResponse] = []
            for await response in group { responses.append(response) }
            return responses
        }
    }

    /// Per token, how many times the stand-in answered 200.
    func acceptedCounts(_ server: APNsMockServer, count: Int) -> [Int] {
        (0..<count).map { index in server.state.records(for: MockHarness.token(index).hex).filter { $0.status == 200 }.count }
    }

    @Test("GOAWAY mid-stream: refused pushes are resent on a new connection, none lost, none accepted twice")
    func goAway() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        _ = await harness.sender.send(MockHarness.update(999))  // open the connection and learn its stream limit
        harness.server.state.inject(.goAwayAfter(requests: 5))
        let responses = await sendAll(harness.sender, count: 60)
        #expect(responses.allSatisfy { $0.outcome == .accepted })
        #expect(acceptedCounts(harness.server, count: 60) == Array(repeating: 1, count: 60))
        #expect(harness.server.connectionsAccepted == 2)
        #expect(harness.sender.connectionsOpened == 2)
    }

    @Test("A connection dropped mid-stream: unanswered pushes are resent, answered ones never are")
    func connectionDrop() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        _ = await harness.sender.send(MockHarness.update(999))
        harness.server.state.inject(.dropConnectionAt(request: 4))
        let responses = await withTaskGroup(of: (Int, PushResponse).self) { group in
            for index in 0..<40 { group.addTask { (index, await harness.sender.send(MockHarness.update(index))) } }
            var responses: [Int: PushResponse] = [:]
            for await (index, response) in group { responses[index] = response }
            return responses
        }
        #expect(responses.values.allSatisfy { $0.outcome == .accepted })
        // A push is sent again only when its answer never arrived: every copy but the last went out on
        // the dropped connection, a push answered at once was seen once, and no copy is seen that the
        // client did not send (a copy may die in the socket before the server reads it).
        let dropped = try #require(harness.server.state.records.first { $0.status == 0 }?.connection)
        for index in 0..<40 {
            let seen = harness.server.state.records(for: MockHarness.token(index).hex)
            let attempts = responses[index]?.attempts ?? 0
            #expect(seen.count <= attempts)
            #expect(seen.dropLast().allSatisfy { $0.connection == dropped })
            if attempts == 1 { #expect(seen.count == 1) }
        }
        #expect(harness.server.state.records.contains { $0.status == 0 }, "the dropped request was recorded unanswered")
        #expect(responses.values.contains { $0.attempts == 2 })
        // The replacement connection is the only new one (a third was once a stolen read: ConnectionReuseTests).
        #expect(harness.server.connectionsAccepted == 2)
    }

    @Test("Drops past the attempt budget give a retry-later transport failure, not a throw")
    func attemptBudget() async throws {
        // Exactly two attempts: the drop, then the resend. (A third was the stand-in's read loop reading
        // once more after dropping, from a descriptor the client's new connection had reused:
        // ConnectionReuseTests.)
        let harness = try MockHarness(maximumAttempts: 3)
        defer { harness.stop() }
        harness.server.state.inject(.dropConnectionAt(request: 1))
        let first = await harness.sender.send(MockHarness.update(1))
        #expect(first.outcome == .accepted && first.attempts == 2)
        harness.server.state.inject(.dropConnectionAt(request: 1))
        let stillOK = await harness.sender.send(MockHarness.update(2))
        #expect(stillOK.outcome == .accepted)
        let budget = try MockHarness(maximumAttempts: 1)
        defer { budget.stop() }
        budget.server.state.inject(.dropConnectionAt(request: 1))
        let lost = await budget.sender.send(MockHarness.update(3))
        #expect(lost.outcome == .retryLater)
        #expect(lost.failure?.kind == .connectionLost)
    }

    @Test("TLS with ALPN h2 works when the stand-in's certificate is trusted through the CA file")
    func tls() async throws {
        let harness = try MockHarness(tls: true)
        defer { harness.stop() }
        let response = await harness.sender.send(MockHarness.update(1))
        #expect(response.outcome == .accepted)
        #expect(harness.server.baseURL.hasPrefix("https://"))
    }

    @Test("An untrusted certificate is a retry-later connect failure naming the certificate")
    func untrusted() async throws {
        let harness = try MockHarness(tls: true, trustCertificate: false)
        defer { harness.stop() }
        let response = await harness.sender.send(MockHarness.update(1))
        #expect(response.outcome == .retryLater)
        #expect(response.failure?.kind == .connectFailed)
        #expect(response.failure?.message.contains("certificate") == true)
    }

    @Test("Nothing listening: a retry-later connect failure; after shutdown: cancelled")
    func refusedAndShutdown() async throws {
        let closed = ClosedPort()
        let endpoint = try Endpoint(url: closed.url)
        let sender = try HTTP2PushSender(options: .init(endpoints: [.sandbox: endpoint]), tokens: nil)
        let refused = await sender.send(MockHarness.update(1))
        #expect(refused.outcome == .retryLater && refused.failure?.kind == .connectFailed)
        let production = try PushRequest.widgetReload(token: Fixture.token, environment: .production, bundleID: Fixture.bundle)
        #expect(await sender.send(production).failure?.kind == .connectFailed)
        sender.shutdown()
        #expect(await sender.send(MockHarness.update(1)).failure?.kind == .cancelled)
        withExtendedLifetime(closed) {}
    }

    @Test("An answer whose remedy is a new connection (503 Shutdown) retires the connection for the next push")
    func shutdownReason() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        harness.server.state.program(MockHarness.token(1).hex, .failing(status: 503, reason: .shutdown, count: 1))
        let first = await harness.sender.send(MockHarness.update(1))
        #expect(first.outcome == .retryLater && first.remedy == .reconnect)
        let second = await harness.sender.send(MockHarness.update(1))
        #expect(second.outcome == .accepted)
        #expect(harness.server.state.records.map(\.connection) == [1, 2])
        #expect(harness.sender.connectionsOpened == 2)
    }
}
