import FleetCore
import Foundation
import HTTPClient
import HookAdapter

/// `lfg hook`'s wait for the phone (contract 8.2, issue 14): on a PermissionRequest, or a PreToolUse of
/// AskUserQuestion or ExitPlanMode, while the answer policy allows it, the recorded prompt carries a
/// question id; after the report is delivered the hook long-polls the question and prints Claude Code's
/// decision when the phone answers. Nothing in time (or answered at the terminal): it prints nothing.
struct PhoneAnswering {
    let wait: AnswerWait
    /// Unix seconds now.
    let now: @Sendable () -> UnixTime

    init(_ configuration: HookConfiguration, client: HTTPClient, idleClock: any HostIdleClock = SystemIdleClock()) {
        let now: @Sendable () -> UnixTime = { Date().timeIntervalSince1970 }
        self.now = now
        wait = AnswerWait(
            settings: configuration.answering, idleClock: idleClock,
            poller: HTTPQuestionPoller(client: client, baseURL: configuration.url, token: configuration.token),
            now: now, pause: { seconds in try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000))) })
    }

    /// Attaches a question to `event` when it asks one and the policy allows waiting now; returns it.
    func ask(_ event: inout HookEvent) -> (PhoneQuestion, AskedQuestion)? {
        guard let question = PhoneQuestion.asked(by: event, permissionSuggestions: event.permissionSuggestions),
            wait.mayWait()
        else { return nil }
        let asked = AskedQuestion(
            id: QuestionID("q-" + UUID().uuidString.lowercased()), expiresAt: now() + wait.settings.waitSeconds,
            options: question.prompt.options, canAlwaysAllow: question.prompt.canAlwaysAllow)
        event.askedQuestion = asked
        return (question, asked)
    }

    /// Waits for the answer; the decision JSON to print, or nil.
    func decision(for asked: (PhoneQuestion, AskedQuestion)) async -> JSONValue? {
        guard let settled = await wait.settled(asked.1.id, until: asked.1.expiresAt) else { return nil }
        return asked.0.decision(for: settled)
    }
}
