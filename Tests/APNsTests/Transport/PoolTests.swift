import APNs
import APNsHTTP2
import APNsMock
import AsyncTesting
import FleetCore
import Testing

@Suite struct PoolTests {
    func sendAll(_ sender: HTTP2PushSender, _ indexes: Range<Int>) async throws -> [PushResponse] {
        try await bounded("answers to \(indexes.count) pushes") {
            await withTaskGroup(of: PushResponse.self) { group in
                for index in indexes { group.addTask { await sender.send(MockHarness.update(index)) } }
                var responses: [PushResponse] = []
                for await response in group { responses.append(response) }
                return responses
            }
        }
    }

    @Test("A pool of 3 opens 3 connections under a burst, then spreads the next burst over all 3, each push accepted once")
    func spreadsABurst() async throws {
        let harness = try MockHarness(configure: { $0.connectionsPerEndpoint = 3 })
        defer { harness.stop() }
        // The first burst opens the pool (a fresh connection takes one stream until its SETTINGS arrive).
        #expect(try await sendAll(harness.sender, 0..<300).allSatisfy { $0.outcome == .accepted })
        #expect(harness.sender.connectionsOpened == 3)
        #expect(try await sendAll(harness.sender, 300..<600).allSatisfy { $0.outcome == .accepted })
        let second = harness.server.state.records.filter { $0.sequence > 300 }
        let perConnection = Dictionary(grouping: second, by: \.connection).mapValues(\.count)
        #expect(perConnection.count == 3, "every connection carried pushes: \(perConnection)")
        #expect(Set(harness.server.state.records.map(\.token)).count == 600)
        #expect(harness.server.connectionsAccepted == 3)
    }

    @Test("The default pool is one connection, however large the burst")
    func defaultIsOne() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        #expect(try await sendAll(harness.sender, 0..<300).allSatisfy { $0.outcome == .accepted })
        #expect(harness.server.connectionsAccepted == 1)
    }

    @Test("Pushes, broadcasts and channel calls to the same URL share one pool; another URL gets its own")
    func routesShareByURL() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let other = try APNsMockServer(clock: harness.clock.clock)
        defer { other.stop() }
        let otherEndpoint = try Endpoint(url: other.baseURL)
        let sender = try HTTP2PushSender(
            options: .init(
                endpoints: [.sandbox: try Endpoint(url: harness.server.baseURL)], channelEndpoints: [.sandbox: otherEndpoint]),
            tokens: harness.tokens)
        defer { sender.shutdown() }
        let created = try await bounded("a channel create") {
            await sender.send(ChannelManagementRequest.create(storagePolicy: .noStorage, bundleID: Fixture.bundle, environment: .sandbox))
        }
        #expect(created.status == 201, "\(created.summary)")
        #expect(other.connectionsAccepted == 1 && harness.server.connectionsAccepted == 0)
        #expect(try await bounded("a push") { await sender.send(MockHarness.update(1)) }.outcome == .accepted)
        let missing = try await bounded("a list") {
            await sender.send(ChannelManagementRequest.listAll(bundleID: Fixture.bundle, environment: .production))
        }
        #expect(missing.status == 0 && missing.failure?.kind == .connectFailed, "no channel URL for production")
    }
}
