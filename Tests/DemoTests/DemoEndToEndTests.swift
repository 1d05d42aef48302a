import APNsMock
import ControlPlane
import Demo
import FleetApp
import FleetCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import LFGCommand

/// The demo's wiring in-process: the real server (HTTP on a loopback port, SQLite, watcher, lock) pushing
/// to the stand-in, with the world played on a manual clock and the watcher ticked by the test.
@Suite struct DemoEndToEndTests {
    /// Demo second 0 on the phone's clock: in the past, so the app's own card updates are never newer
    /// than the server's pushes (which carry the real time).
    static let start: UnixTime = 1_764_400_000

    @Test("The demo's server pushes start, update and end, and the phone's card equals the server's when quiet")
    func demoDrivesTheCardThroughTheServer() async throws {
        let home = FileManager.default.temporaryDirectory.path + "/lfg-demo-test-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: home) }
        let problems = Mutex<[String]>([])
        let context = CommandContext(
            readInput: { Data() }, write: { _ in }, writeError: { text in problems.withLock { $0.append(text) } },
            environment: [:])
        let demo = try await DemoParts.assemble(
            environment: ["LFG_HOME": home, "LFG_AUTH_TOKEN": "demo-test-token", "LFG_APNS_KEY_FILE": "/nonexistent"],
            port: 0, bind: "127.0.0.1", context: context)
        defer { demo.standIn.stop() }
        #expect(demo.serve.gateReason == nil)
        #expect(demo.bearerToken == "demo-test-token")

        let server = demo.serve.server
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            try await play(demo)
            group.cancelAll()
        }
        #expect(problems.withLock { $0 } == [])
    }

    func play(_ demo: DemoParts) async throws {
        let api = LoopbackHTTPHandler(baseURL: demo.url)
        let narration = Narration()
        let world = DemoWorld(
            schedule: .standard, api: api, bearerToken: demo.bearerToken, startedAt: Self.start, pushes: demo.inbox,
            narrate: { narration.lines.append($0) })
        let service = demo.serve.service
        var comparedAt: [Double] = []
        for tenth in 0...1190 {
            let second = Double(tenth) / 10
            await world.advance(to: Self.start + second)
            await service.tick()
            // The serve loop sends question pushes as they are queued; here the test does.
            await service.sendQuestionPushes()
            await world.advance(to: Self.start + second)
            // Quiet moments: the app-made card, pushed to five sessions with two asking; the push-started card.
            let asking: [Double: Int] = [20: 2, 56: 1]
            guard let needsInput = asking[second] else { continue }
            let before = demo.standIn.state.records.count
            await service.tick()
            #expect(demo.standIn.state.records.count == before, "a quiet moment sends nothing")
            let state = try await liveActivityState(api, token: demo.bearerToken)
            let card = try #require(state.devices.first { $0.deviceId == DemoWorld.deviceID }?.card?.contentState)
            let visible = try #require(world.liveCards.first)
            #expect(world.liveCards.count == 1)
            // Privacy mode (the demo's default): the server's card is wordless, the phone's may carry the words
            // the app put back; they are the same card (FleetCore's one rule for the two writers).
            #expect(card.isWordless)
            #expect(
                visible.content.isSame(as: card, words: .withheld),
                "at \(second) s the phone shows \(visible.content), the server \(card)")
            #expect(card.needsInput == needsInput)
            // Beside the oldest question (the deploy permission, with Allow / Deny) the card keeps two rows.
            #expect(card.more == (second == 20 ? 3 : 0))
            #expect(card.question?.sid == (second == 20 ? "deploy-1" : "toolchain-1"))
            comparedAt.append(second)
        }
        #expect(comparedAt == [20, 56])
        let events = demo.standIn.state.records.compactMap(Self.event(of:))
        #expect(events.contains("start") && events.contains("update") && events.contains("end"))
        #expect(demo.standIn.state.records.allSatisfy { $0.status == 200 && $0.providerToken != nil })
        #expect(world.liveCards.isEmpty, "everything finished before the cycle's end")
        // The leak check (contract 8.3): on, searched every push of the cycle, and found none of the demo's words.
        #expect(demo.standIn.state.isCheckingLeaks)
        #expect(demo.standIn.state.leakChecked >= events.count)
        #expect(demo.standIn.state.leaks == [])
        try await expectQuestionsPlayedOut(demo, api: api, world: world)
        let opened = narration.lines.filter { $0.contains("sealed alert, opened with the phone's key") }
        #expect(opened.count == 3, "\(narration.lines.filter { $0.contains("alert") })")
        #expect(!narration.lines.contains { $0.contains("has no") }, "every button tapped was on its alert")
    }

    /// The demo's narration, kept for the checks.
    final class Narration { var lines: [String] = [] }

    /// Issue 14.6: each question alerted the phone; two were answered from its alerts (the agents released),
    /// one at the terminal; every alert was withdrawn by a background push.
    func expectQuestionsPlayedOut(_ demo: DemoParts, api: LoopbackHTTPHandler, world: DemoWorld) async throws {
        let records = demo.standIn.state.records
        let alerts = records.filter { $0.pushType == "alert" }
        #expect(alerts.map { $0.headers["apns-collapse-id"] } == ["deploy-ask-1", "cache-ask-1", "toolchain-ask-1"])
        #expect(alerts.allSatisfy { $0.token == DemoWorld.alertToken.hex })
        // Privacy mode: each alert went sealed to the key the phone made and registered (no options, no
        // title in the clear), and the phone opened each with its own key: the words and buttons came from it.
        let phoneKey = try #require(try world.phone.sealKeys?.currentKey())
        for alert in alerts {
            let body = try #require(alert.bodyJSON as? [String: Any])
            #expect(body["options"] == nil)
            #expect((body["lfgSeal"] as? [String: Any])?["kid"] as? String == phoneKey.keyID)
        }
        let device = await api.respond(to: HTTPRequest(
            method: "GET", path: "/api/devices/\(DemoWorld.deviceID.rawValue)",
            headers: ["Authorization": "Bearer \(demo.bearerToken)"]))
        let registered = try JSONDecoder().decode(DeviceChannelInfo.self, from: try #require(device.bodyData))
        #expect(registered.sealKeyId == phoneKey.keyID && registered.privacy == true)
        let withdrawals = records.filter { $0.pushType == "background" }
        #expect(Set(withdrawals.compactMap { $0.headers["apns-collapse-id"] }) == ["deploy-ask-1", "cache-ask-1", "toolchain-ask-1"])
        for (id, answer, by) in [("deploy-ask-1", "Allow", "demo-iphone"), ("cache-ask-1", "SQLite", "demo-iphone")] {
            let reply = await api.respond(to: HTTPRequest(
                method: "GET", path: "/api/questions/\(id)", headers: ["Authorization": "Bearer \(demo.bearerToken)"]))
            let question = try JSONDecoder().decode(Question.self, from: try #require(reply.bodyData))
            #expect(question.state == .answered && question.answer == answer && question.answeredBy == by)
        }
        #expect(world.phone.alerts.delivered.isEmpty, "every alert was withdrawn")
        #expect(world.phone.alerts.notices.isEmpty)
    }

    func liveActivityState(_ api: LoopbackHTTPHandler, token: String) async throws -> StateReply {
        let answer = await api.respond(to: HTTPRequest(
            method: "GET", path: "/api/push/live-activity/state", headers: ["Authorization": "Bearer \(token)"]))
        #expect(answer.status == 200)
        return try JSONDecoder().decode(StateReply.self, from: try #require(answer.bodyData))
    }

    static func event(of record: MockRecord) -> String? {
        ((record.bodyJSON as? [String: Any])?["aps"] as? [String: Any])?["event"] as? String
    }

    /// `GET /api/push/live-activity/state` as a client reads it.
    struct StateReply: Decodable {
        struct Device: Decodable {
            struct Card: Decodable { var contentState: ContentState? }
            var deviceId: DeviceID
            var card: Card?
        }
        var enabled: Bool
        var devices: [Device]
    }
}
