import Diagnosis
import FleetCore
import Testing

/// The demo's idle-phone cycle (issue 12, defect 6), written through the schema's constructors: the
/// 16:25:21 start was never adopted (its card's update and end went to the previous card's token X),
/// and the 16:25:39 start was adopted through its own new token Y.
@Suite struct IdlePhoneCycleTests {
    static let t2125: UnixTime = 1_796_142_321  // 2026-12-01 16:25:21Z
    static let x = "aaaa0000aaaa0000", y = "bbbb1111bbbb1111", pushToStart = "cccc2222cccc2222"

    static func cycle() -> String {
        let phone: DeviceID = "phone"
        let ok = LoggedAnswer(status: 200, milliseconds: 3)
        let one = ContentState(working: 1, rows: [Row(sid: "s1", title: "a", state: .working, since: 0)])
        var lines: [DecisionLogLine] = []
        func start(_ ts: UnixTime) {
            lines.append(.decide(at: ts, deviceId: phone, action: .start, tokens: 1, content: one))
            lines.append(.send(at: ts, deviceId: phone, action: .start, token: pushToStart, env: .sandbox, answer: ok))
        }
        func push(_ action: PushAction, _ ts: UnixTime, to token: String) {
            lines.append(.decide(at: ts, deviceId: phone, action: action, tokens: 1, content: one))
            lines.append(.send(at: ts, deviceId: phone, action: action, token: token, env: .sandbox, answer: ok))
        }
        // The earlier card: started, adopted through X, updated, ended.
        start(t2125 - 60)
        lines.append(.adopted(at: t2125 - 57, deviceId: phone, token: x, env: .sandbox))
        push(.update, t2125 - 40, to: x)
        push(.end, t2125 - 10, to: x)
        // 16:25:21: the idle phone shows the new card but never hands back its token.
        start(t2125)
        push(.update, t2125 + 6, to: x)
        push(.end, t2125 + 12, to: x)
        // 16:25:39: the person opens the app; the new card's token Y arrives.
        start(t2125 + 18)
        lines.append(.adopted(at: t2125 + 24, deviceId: phone, token: y, env: .sandbox))
        push(.update, t2125 + 30, to: y)
        return lines.map(\.jsonText).joined(separator: "\n") + "\n"
    }

    @Test("Each start is matched to its own card's token: 16:25:21 never adopted, 16:25:39 adopted after 6 s")
    func startsPairWithTheirOwnCards() throws {
        let device = try #require(LogFixture().report(text: Self.cycle()).devices.first)
        let starts = device.starts.listed.filter { $0.ts >= Self.t2125 }
        #expect(starts.map(\.outcome) == [.notAdopted, .adopted])
        #expect(starts.map(\.family) == [.idlePhoneGap, .deliveryOrContent])
        #expect(starts.last?.adoptedAfterSeconds == 6)
        #expect(device.starts.adopted == 2)  // the earlier card, and 16:25:39
        #expect(device.starts.notAdopted == 1)
        let text = LogFixture().report(text: Self.cycle()).text(source: "demo.log")
        #expect(text.contains("2026-12-01 16:25:21Z start, 1 token: never adopted (missing)"))
        #expect(text.contains("2026-12-01 16:25:39Z start, 1 token: adopted after 6.0 s"))
    }

    @Test("A re-registered old token adopts nothing; a new card's token after the window is a late adoption")
    func lateAndReRegistered() throws {
        var log = LogFixture()
        log.start(1_000)
        log.update(1_010, token: "bbbb2222")
        log.start(2_000)
        log.line(2_010, "adopted", ["token": "bbbb2222", "env": "sandbox"])  // the old card's token again
        log.line(2_200, "adopted", ["token": "dddd4444", "env": "sandbox"])
        let device = try #require(log.report().devices.first)
        #expect(device.starts.listed.map(\.outcome) == [.notAdopted, .adoptedLate])
        #expect(device.starts.listed.last?.adoptedAfterSeconds == 200)
        #expect(device.starts.adoptedLate == 1)
    }
}
