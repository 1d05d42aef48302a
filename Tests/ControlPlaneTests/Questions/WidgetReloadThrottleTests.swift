import APNs
import ControlPlane
import FleetCore
import Foundation
import Testing

/// Widget reloads: at most one per 15 s per device, the trailing change never lost (seed 002).
@Suite(.timeLimit(.minutes(1))) struct WidgetReloadThrottleTests {
    @Test("The first change pushes at once; changes inside the window are owed one push at its end, not before")
    func leadingAndTrailing() {
        var throttle = WidgetReloadThrottle()
        #expect(throttle.changed(["a", "b"], at: 100) == ["a", "b"])
        #expect(throttle.changed(["a"], at: 101).isEmpty)
        #expect(throttle.changed(["a"], at: 110).isEmpty)
        #expect(throttle.isOwed("a"))
        #expect(throttle.due(at: 114.999).isEmpty)
        #expect(throttle.due(at: 115) == ["a"])
        #expect(throttle.due(at: 200).isEmpty)
        // The trailing push opened a new window.
        #expect(throttle.changed(["a"], at: 129).isEmpty)
        #expect(throttle.changed(["a"], at: 130) == ["a"])
        #expect(!throttle.isOwed("a"))
        #expect(throttle.changed(["b"], at: 115) == ["b"])
    }

    @Test("Through the service: a burst of session changes costs one reload now and one when the window ends")
    func service() async throws {
        let harness = try await QuestionHarness()
        await harness.call("PUT", "/api/devices/phone", #"{"env":"sandbox","widgetPushToken":"\#(hexA)"}"#)
        for index in 0..<5 { await harness.call("PUT", "/api/sessions/s\(index)", #"{"title":"t","busy":true}"#) }
        await harness.service.sendQuestionPushes()
        #expect(harness.requests.map(\.pushType) == [.widgets])
        let request = try #require(harness.requests.first)
        #expect(request.topic == "com.example.lfg.push-type.widgets")
        #expect(request.json["aps"] as? [String: Bool] == ["content-changed": true])
        harness.time.advance(14)
        await harness.service.tick()
        await harness.service.sendQuestionPushes()
        #expect(harness.requests.count == 1)
        harness.time.advance(1)
        await harness.service.tick()
        await harness.service.sendQuestionPushes()
        #expect(harness.requests.map(\.pushType) == [.widgets, .widgets])
    }

    @Test("A dead widget token is pruned and logged as kind widget")
    func pruning() async throws {
        let harness = try await QuestionHarness(sender: RecordingPushSender([hexA: (410, "Unregistered")]))
        await harness.call("PUT", "/api/devices/phone", #"{"env":"sandbox","widgetPushToken":"\#(hexA)"}"#)
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"t"}"#)
        await harness.service.sendQuestionPushes()
        #expect(try await harness.store.load().devices["phone"]?.profile.widgetPushToken == nil)
        #expect(harness.log.all.filter { $0.event == .tokenPruned }.map { $0.fields[.kind] } == [.string("widget")])
    }
}
