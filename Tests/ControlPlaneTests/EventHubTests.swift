import AsyncTesting
import ControlPlane
import Foundation
import Synchronization
import Testing

/// `GET /api/events`' hub: an event's JSON is made only for someone to read it.
@Suite struct EventHubTests {
    @Test("With no stream open, publishing never encodes the event")
    func noSubscriberNoEncoding() {
        let hub = EventHub()
        let encodings = Mutex(0)
        hub.publish("session") {
            encodings.withLock { $0 += 1 }
            return Data("{}".utf8)
        }
        #expect(encodings.withLock { $0 } == 0)
    }

    @Test("With a stream open, the event is encoded once and framed as SSE", .timeLimit(.minutes(1)))
    func subscriberGetsEncodedEvent() async throws {
        let hub = EventHub()
        let frames = Inbox(draining: hub.subscribe())
        #expect(try await frames.next("the connected comment") == Data(": connected\n\n".utf8))
        let encodings = Mutex(0)
        hub.publish("session") {
            encodings.withLock { $0 += 1 }
            return Data(#"{"sid":"a"}"#.utf8)
        }
        #expect(try await frames.next("the session event") == Data("event: session\ndata: {\"sid\":\"a\"}\n\n".utf8))
        #expect(encodings.withLock { $0 } == 1)
    }

    @Test("A PUT with nobody listening still answers, and a later stream sees the next change", .timeLimit(.minutes(1)))
    func serviceSessionEventsWithAndWithoutListener() async throws {
        let service = try await EventHeartbeatTests.service(ManualClock())
        try await service.putSession("a", .init(title: "first"))
        let frames = Inbox(draining: service.events.subscribe())
        #expect(try await frames.next("the connected comment") == Data(": connected\n\n".utf8))
        try await service.putSession("b", .init(title: "second"))
        let frame = try #require(try await frames.next("the session event for b"))
        let text = String(decoding: frame, as: UTF8.self)
        #expect(text.hasPrefix("event: session\ndata: {"))
        #expect(text.contains(#""sid":"b""#))
    }
}
