import APNs
import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import Foundation
import Testing

/// `GET /api/events` keepalives, driven by the service's duration clock.
@Suite struct EventHeartbeatTests {
    static func service(_ clock: ManualClock) async throws -> ControlPlaneService {
        let service = ControlPlaneService(.init(
            store: InMemoryStore(), gateway: ScriptedPushGateway(), decisionLog: InMemoryDecisionLog(), clock: clock))
        try await service.start()
        return service
    }

    @Test("Every open stream gets a `: keepalive` comment every 15 s", .timeLimit(.minutes(1)))
    func keepaliveEvery15Seconds() async throws {
        let clock = ManualClock()
        let service = try await Self.service(clock)
        let frames = Inbox(draining: service.events.subscribe())
        #expect(try await frames.next("the connected comment") == Data(": connected\n\n".utf8))
        let loop = Task { await service.run() }
        defer { loop.cancel() }

        for _ in 0..<2 {
            try await clock.waitForSleeper(until: clock.now.advanced(by: EventHub.heartbeatInterval))
            clock.advance(by: EventHub.heartbeatInterval)
            #expect(try await frames.next("a keepalive comment") == Data(": keepalive\n\n".utf8))
        }
        #expect(EventHub.heartbeatInterval == .seconds(15))
    }

    @Test("A stream whose client went away is released at the next heartbeat", .timeLimit(.minutes(1)))
    func deadClientReleasedAtHeartbeat() async throws {
        let clock = ManualClock()
        let service = try await Self.service(clock)
        let (written, wrote) = AsyncStream.makeStream(of: Void.self)
        // Like the HTTP server's pump: it notices a closed tab only when a write to it fails.
        let pump = Task { [events = service.events] in
            var isClientGone = false
            for await _ in events.subscribe() {
                if isClientGone { break }
                isClientGone = true  // ": connected" went out; then the tab closed
                wrote.yield()
            }
        }
        let writes = Inbox(draining: written)
        _ = try await writes.next("the pump's first write")
        #expect(service.events.subscriberCount == 1)

        let loop = Task { await service.run() }
        defer { loop.cancel() }
        try await clock.waitForSleeper(until: clock.now.advanced(by: EventHub.heartbeatInterval))
        clock.advance(by: EventHub.heartbeatInterval)
        try await bounded("the pump to notice the closed client") { await pump.value }
        #expect(service.events.subscriberCount == 0)
    }
}
