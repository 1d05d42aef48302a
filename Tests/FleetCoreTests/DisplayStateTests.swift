import FleetCore
import Testing

@Suite("The display-state ladder")
struct DisplayStateTests {
    static let question = Prompt(kind: .question, text: "Which one?")

    @Test(
        "The first rung that applies wins",
        arguments: [
            (SessionReport(busy: true, prompt: question, archived: true), true, DisplayState?.none),
            (SessionReport(busy: true, prompt: question), true, .unknown),
            (SessionReport(busy: true, blocked: true, prompt: question), false, .needsInput),
            (SessionReport(busy: true, blocked: true), false, .blocked),
            (SessionReport(busy: true), false, .working),
            (SessionReport(unread: true), false, .idle),
        ])
    func ladderOrder(report: SessionReport, isHostDown: Bool, expected: DisplayState?) {
        #expect(DisplayState.resolve(report, isHostDown: isHostDown) == expected)
    }

    @Test("Only working (with no news) and needs-input sessions are active card rows")
    func activeStates() {
        #expect(DisplayState.allCases.filter(\.isActive) == [.needsInput, .noNews, .working])
        #expect(DisplayState.working.rowState == .working)
        #expect(DisplayState.noNews.rowState == .working)
        #expect(DisplayState.needsInput.rowState == .needsInput)
        #expect(DisplayState.blocked.rowState == nil)
    }

    @Test("A sign-in request is an ordinary prompt: needs input")
    func signInIsAPrompt() {
        let report = SessionReport(prompt: Prompt(kind: .signin, text: "Sign in on your phone"))
        #expect(DisplayState.resolve(report, isHostDown: false) == .needsInput)
    }
}

@Suite("Hidden folders")
struct HiddenDirsTests {
    @Test(
        "Hiding matches on path boundaries",
        arguments: [
            ("/a/b", true), ("/a/b/c", true), ("/a/b/", true), ("/a/bc", false), ("/a", false), ("", false),
        ])
    func boundaries(cwd: String, hidden: Bool) {
        #expect(HiddenDirs(["/a/b"]).hides(cwd) == hidden)
    }

    @Test("A hidden folder given with a trailing slash still hides its children")
    func trailingSlash() {
        #expect(HiddenDirs(["/a/b/"]).hides("/a/b/c"))
        #expect(!HiddenDirs(["/a/b/"]).hides("/a/bc"))
    }
}
