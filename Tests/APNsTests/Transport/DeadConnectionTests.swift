import APNs
import APNsHTTP2
import APNsMock
import AsyncTesting
import FleetCore
import Testing

/// A peer that stops answering without closing: found by the request timeout, or by keepalive PINGs in
/// seconds. The injected transport clock drives detection; the test never sleeps.
@Suite struct DeadConnectionTests {
    struct Setup {
        let harness: MockHarness
        let time: ManualTransportClock
        let events: Inbox<TransportEvent>
        let records: Inbox<MockRecord>
    }

    func setUp(keepalive: HTTP2PushSender.Keepalive?) async throws -> Setup {
        let time = ManualTransportClock()
        let events = Inbox<TransportEvent>()
        let records = Inbox<MockRecord>()
        let harness = try MockHarness(onRecord: records.report, configure: { options in
            options.clock = time.clock
            options.keepalive = keepalive
            options.requestTimeout = .seconds(30)
            options.observer = events.report
        })
        #expect(try await harness.send(MockHarness.update(0)).outcome == .accepted)  // the connection is open and heard from
        harness.server.state.inject(.goSilentAt(request: 1))
        return Setup(harness: harness, time: time, events: events, records: records)
    }

    /// Starts a push and returns once the stand-in has it (and has gone silent on its connection).
    func sendIntoSilence(_ setup: Setup) async throws -> Task<PushResponse, Never> {
        let sender = setup.harness.sender
        let push = Task { await sender.send(MockHarness.update(1)) }
        _ = try await setup.records.first("the stand-in receiving the push") { $0.token == MockHarness.token(1).hex }
        return push
    }

    @Test("Without keepalive a silent connection is found at the request timeout, on the injected clock, and the push resent")
    func requestTimeout() async throws {
        let setup = try await setUp(keepalive: nil)
        defer { setup.harness.stop() }
        let push = try await sendIntoSilence(setup)
        setup.time.advance(by: .seconds(31))
        let closed = try await setup.events.first("the dead connection's close") { if case .connectionClosed = $0 { true } else { false } }
        guard case .connectionClosed(_, let failure) = closed else { Issue.record("no close reported"); return }
        #expect(failure.kind == .timedOut && failure.message.contains("no answer within"))
        let response = try await bounded("the resent push's answer") { await push.value }
        #expect(response.outcome == .accepted && response.attempts == 2)
        #expect(response.latencyMilliseconds == 31_000, "detection time is the injected clock's, not the wall's")
        #expect(setup.harness.server.connectionsAccepted == 2)
    }

    @Test("With keepalive a silent connection is PINGed after 5 quiet seconds and closed 5 s later, long before 30 s")
    func keepaliveFindsItInSeconds() async throws {
        let setup = try await setUp(keepalive: .init(interval: .seconds(60), timeout: .seconds(5)))
        defer { setup.harness.stop() }
        let push = try await sendIntoSilence(setup)
        setup.time.advance(by: .seconds(6))
        #expect(try await setup.events.first("a keepalive PING") { if case .pingSent = $0 { true } else { false } } != nil)
        setup.time.advance(by: .seconds(6))
        let closed = try await setup.events.first("the dead connection's close") { if case .connectionClosed = $0 { true } else { false } }
        guard case .connectionClosed(_, let failure) = closed else { Issue.record("no close reported"); return }
        #expect(failure.kind == .timedOut && failure.message.contains("PING ACK"))
        let response = try await bounded("the resent push's answer") { await push.value }
        #expect(response.outcome == .accepted && response.attempts == 2)
        #expect(response.latencyMilliseconds == 12_000, "found dead at 12 s on the injected clock, not at the 30 s timeout")
    }

    @Test("An idle live connection is PINGed each interval, acknowledged, and kept")
    func idlePingIsAcknowledged() async throws {
        let time = ManualTransportClock()
        let events = Inbox<TransportEvent>()
        let harness = try MockHarness(configure: { options in
            options.clock = time.clock
            options.keepalive = .init(interval: .seconds(60), timeout: .seconds(5))
            options.observer = events.report
        })
        defer { harness.stop() }
        #expect(try await harness.send(MockHarness.update(0)).outcome == .accepted)
        time.advance(by: .seconds(61))
        #expect(try await events.first("a keepalive PING") { if case .pingSent = $0 { true } else { false } } != nil)
        // The ACK arrives in real time; the push after it must still use the same connection.
        time.advance(by: .seconds(1))
        #expect(try await harness.send(MockHarness.update(1)).outcome == .accepted)
        time.advance(by: .seconds(10))
        #expect(try await harness.send(MockHarness.update(2)).outcome == .accepted)
        #expect(harness.server.connectionsAccepted == 1, "the acknowledged connection was kept")
    }
}
