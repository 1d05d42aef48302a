import Foundation
@testable import APNs
import FleetCore
import Testing

@Suite struct PayloadBuilderTests {
    func liveActivity(_ payload: LiveActivityPayload) throws -> (PushRequest, JSONValue) {
        let request = try PushRequest.liveActivity(
            payload, token: Fixture.token, environment: .sandbox, bundleID: Fixture.bundle)
        return (request, try JSONValue(parsing: request.payload.bytes))
    }

    @Test("Live Activity pushes use the liveactivity type, the suffixed topic and priority 10")
    func liveActivityHeaders() throws {
        let (request, _) = try liveActivity(.update(state: Fixture.state, timestamp: 1_764_400_000))
        #expect(request.headers == [
            HeaderField("apns-push-type", "liveactivity"),
            HeaderField("apns-topic", "dev.lfg.app.push-type.liveactivity"),
            HeaderField("apns-priority", "10"),
        ])
    }

    @Test("A start carries timestamp, event, content-state, attributes-type, attributes, alert and relevance-score")
    func start() throws {
        let (_, json) = try liveActivity(.start(state: Fixture.state, timestamp: 1_764_400_000.9, staleDate: 1_764_403_600))
        #expect(json == .object(["aps": .object([
            "timestamp": .number(1_764_400_000),
            "event": .string("start"),
            "content-state": Fixture.stateJSON,
            "attributes-type": .string("LFGFleetAttributes"),
            "attributes": .object(["fleetId": .string("fleet")]),
            "alert": .object(["title": .string("LFG"), "body": .string("1 needs input · 2 working")]),
            "relevance-score": .number(100),
            "stale-date": .number(1_764_403_600),
            "input-push-token": .number(1),
        ])]))
    }

    @Test("An update carries timestamp, event, content-state and relevance-score, and nothing of a start")
    func update() throws {
        var state = Fixture.state
        state.needsInput = 0
        let (_, json) = try liveActivity(.update(state: state, timestamp: 1_764_400_001))
        var expectedState = Fixture.stateJSON
        if case .object(var object) = expectedState { object["needsInput"] = .number(0); expectedState = .object(object) }
        #expect(json == .object(["aps": .object([
            "timestamp": .number(1_764_400_001),
            "event": .string("update"),
            "content-state": expectedState,
            "relevance-score": .number(90),
        ])]))
    }

    @Test("An end carries the zeroed state and a dismissal-date, and no relevance-score")
    func end() throws {
        let (_, json) = try liveActivity(
            .end(state: .zeroed(at: 1_764_400_002), timestamp: 1_764_400_002, dismissalDate: 1_764_400_002))
        #expect(json == .object(["aps": .object([
            "timestamp": .number(1_764_400_002),
            "event": .string("end"),
            "content-state": .object([
                "working": .number(0), "needsInput": .number(0), "rows": .array([]), "more": .number(0),
                "updatedAt": .number(1_764_400_002),
            ]),
            "dismissal-date": .number(1_764_400_002),
        ])]))
    }

    @Test("The content-state round-trips into FleetCore's ContentState")
    func contentStateRoundTrip() throws {
        let (request, _) = try liveActivity(.update(state: Fixture.state, timestamp: 1))
        struct Body: Decodable {
            struct APS: Decodable {
                let contentState: ContentState
                enum CodingKeys: String, CodingKey { case contentState = "content-state" }
            }
            let aps: APS
        }
        let body = try JSONDecoder().decode(Body.self, from: Data(request.payload.bytes))
        #expect(body.aps.contentState == Fixture.state)
    }

    @Test("An alert push carries the alert dictionary, its options and custom keys beside aps")
    func alert() throws {
        let request = try PushRequest.alert(
            AlertPayload(
                title: "Approval needed", subtitle: "repo api", body: "Job 42 is waiting", threadID: "job-42",
                category: "APPROVAL", interruptionLevel: "time-sensitive", relevanceScore: 0.5,
                custom: ["jobId": "42", "aps": "ignored"]),
            token: Fixture.token, environment: .production, bundleID: Fixture.bundle, collapseID: CollapseID("job-42"))
        #expect(request.headers.map(\.description) == [
            "apns-push-type: alert", "apns-topic: dev.lfg.app", "apns-priority: 10", "apns-collapse-id: job-42",
        ])
        #expect(try JSONValue(parsing: request.payload.bytes) == .object([
            "aps": .object([
                "alert": .object([
                    "title": .string("Approval needed"), "subtitle": .string("repo api"),
                    "body": .string("Job 42 is waiting"),
                ]),
                "sound": .string("default"), "thread-id": .string("job-42"), "category": .string("APPROVAL"),
                "interruption-level": .string("time-sensitive"), "relevance-score": .number(0.5),
            ]),
            "jobId": .string("42"),
        ]))
    }

    @Test("A background push is content-available only, at priority 5")
    func background() throws {
        let request = try PushRequest.background(
            BackgroundPayload(custom: ["kind": "refresh"]), token: Fixture.token, environment: .sandbox,
            bundleID: Fixture.bundle)
        #expect(request.headers.map(\.description) == [
            "apns-push-type: background", "apns-topic: dev.lfg.app", "apns-priority: 5",
        ])
        #expect(try JSONValue(parsing: request.payload.bytes) == .object([
            "aps": .object(["content-available": .number(1)]), "kind": .string("refresh"),
        ]))
    }

    @Test("A widget reload is content-changed true under the widgets topic")
    func widget() throws {
        let request = try PushRequest.widgetReload(token: Fixture.token, environment: .sandbox, bundleID: Fixture.bundle)
        #expect(request.headers.map(\.description) == [
            "apns-push-type: widgets", "apns-topic: dev.lfg.app.push-type.widgets", "apns-priority: 10",
        ])
        #expect(try JSONValue(parsing: request.payload.bytes) == .object(["aps": .object(["content-changed": .bool(true)])]))
    }
}
