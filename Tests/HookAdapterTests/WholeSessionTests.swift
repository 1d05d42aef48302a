import FleetCore
import HookAdapter
import Testing

@Suite("A whole recorded Claude Code session through the reducer")
struct WholeSessionTests {
    /// What one event should leave: nil `report` means the event sends nothing.
    struct Expected {
        var display: DisplayState?
        var title: String
        var step: String?
        var prompt: Prompt?
        var unread = false
        var sends = true
    }

    static let title = "In the iOS client, can you add pull-to-refresh…"
    static let permission = Prompt(kind: .permission, text: "Bash: rm -rf .build")

    static let expectations: [Expected] = [
        Expected(display: .idle, title: "LFG"),
        Expected(display: .working, title: title),
        Expected(display: .working, title: title, step: "Read SessionListView.swift"),
        Expected(display: .working, title: title, step: "Read SessionListView.swift", sends: false),
        Expected(display: .working, title: title, step: "Bash: swift test"),
        Expected(display: .working, title: title, step: "Bash: swift test", sends: false),
        Expected(display: .working, title: title, step: "Bash: rm -rf .build"),
        Expected(display: .needsInput, title: title, step: "Bash: rm -rf .build", prompt: permission),
        Expected(display: .needsInput, title: title, step: "Bash: rm -rf .build", prompt: permission, sends: false),
        Expected(display: .working, title: title, step: "Bash: rm -rf .build"),
        Expected(display: .working, title: title, step: "Bash: rm -rf .build", sends: false),
        Expected(display: .working, title: title, step: "Grep refreshable"),
        Expected(display: .working, title: title, step: "Grep refreshable", sends: false),
        Expected(display: .working, title: title, step: "Edit SessionListView.swift"),
        Expected(display: .idle, title: title, unread: true),
        Expected(display: nil, title: title, unread: true),
    ]

    @Test("Each event leaves the report and display state the session really has")
    func wholeSession() throws {
        #expect(RecordedPayloads.wholeSession.count == Self.expectations.count)
        var state: HookSessionState?
        for (event, expected) in zip(RecordedPayloads.wholeSession, Self.expectations) {
            let effects = HookReducer.reduce(&state, try HookEvent.decode(event.payload), host: .local)
            let report = try #require(state?.report, "\(event.name)")
            #expect(DisplayState.resolve(report, isHostDown: false) == expected.display, "\(event.name)")
            #expect(report.title == expected.title, "\(event.name)")
            #expect(report.step == expected.step, "\(event.name)")
            #expect(report.prompt == expected.prompt, "\(event.name)")
            #expect(report.unread == expected.unread, "\(event.name)")
            #expect(report.cwd == RecordedPayloads.cwd, "\(event.name)")
            let sent = SpooledReport(sid: SessionID(RecordedPayloads.sid), report: report)
            #expect(effects == (expected.sends ? [.putReport(sent)] : []), "\(event.name)")
        }
    }
}
