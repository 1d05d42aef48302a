import FleetCore
import HookAdapter
import Synchronization
import Testing

/// An idle clock the test sets; it counts how often it was read.
final class SetIdleClock: HostIdleClock {
    let value: Mutex<Double?>
    init(_ seconds: Double?) { value = Mutex(seconds) }
    func idleSeconds() -> Double? { value.withLock { $0 } }
    func set(_ seconds: Double?) { value.withLock { $0 = seconds } }
}

/// A poller that answers from a script, advancing a fake wall clock by each slice it "waits".
final class ScriptedPoller: QuestionPoller {
    private struct State {
        var answers: [Question?]
        var slices: [Double] = []
        var now: Double = 1_000
    }

    private let state: Mutex<State>
    /// Called after each poll (the test moves the idle clock here).
    let afterPoll: @Sendable (Int) -> Void

    init(_ answers: [Question?], afterPoll: @escaping @Sendable (Int) -> Void = { _ in }) {
        state = Mutex(State(answers: answers))
        self.afterPoll = afterPoll
    }

    var slices: [Double] { state.withLock { $0.slices } }
    var now: Double { state.withLock { $0.now } }

    func wait(for id: QuestionID, seconds: Double) async -> Question? {
        let (answer, count) = state.withLock { state -> (Question?, Int) in
            guard !state.answers.isEmpty else {
                Issue.record("polled more often than the script says")
                return (nil, state.slices.count)
            }
            state.slices.append(seconds)
            state.now += seconds
            return (state.answers.removeFirst(), state.slices.count)
        }
        afterPoll(count)
        return answer
    }
}

@Suite struct AnswerPolicyTests {
    static let pending = Question(
        id: "q1", sid: "s1", kind: .confirm, text: "t", options: Question.permissionOptions, createdAt: 0, expiresAt: nil)
    static var answered: Question {
        var question = pending
        question.state = .answered
        question.answer = "Allow"
        return question
    }

    @Test("Policies parse from their text; anything else is refused", arguments: [
        ("always", AnswerPolicy.always), ("never", .never), ("idle:60", .idle(seconds: 60)), (" IDLE:2.5 ", .idle(seconds: 2.5)),
    ])
    func parsing(text: String, policy: AnswerPolicy) {
        #expect(AnswerPolicy(text: text) == policy)
    }

    @Test("Unreadable settings are named and their defaults used")
    func badSettings() {
        #expect(AnswerPolicy(text: "idle:") == nil)
        #expect(AnswerPolicy(text: "idle:-1") == nil)
        let (settings, problems) = AnswerSettings.resolve { ["LFG_ANSWER_POLICY": "sometimes", "LFG_ANSWER_WAIT_S": "999"][$0] }
        #expect(settings == AnswerSettings())
        #expect(problems.count == 2)
        #expect(problems[0].contains("LFG_ANSWER_POLICY"))
        #expect(AnswerSettings(waitSeconds: 120).hookTimeoutSeconds == 150)
    }

    @Test("The idle policy waits at its threshold, not a moment before, and never on an unknown idle time")
    func idleThreshold() {
        let policy = AnswerPolicy.idle(seconds: 60)
        #expect(!policy.allowsWaiting(idleSeconds: 59.999))
        #expect(policy.allowsWaiting(idleSeconds: 60))
        #expect(!policy.allowsWaiting(idleSeconds: nil))
        #expect(AnswerPolicy.always.allowsWaiting(idleSeconds: nil))
        #expect(!AnswerPolicy.never.allowsWaiting(idleSeconds: 3_600))
    }

    @Test("While the person is active the hook never polls at all")
    func activeNeverWaits() async {
        let poller = ScriptedPoller([])
        let wait = AnswerWait(
            settings: AnswerSettings(), idleClock: SetIdleClock(5), poller: poller, now: { poller.now })
        #expect(!wait.mayWait())
        #expect(await wait.settled("q1", until: 1_300) == nil)
        #expect(poller.slices.isEmpty)
    }

    @Test("A person who comes back mid-wait releases the hook at the next slice")
    func returningPersonReleases() async {
        let idle = SetIdleClock(120)
        let poller = ScriptedPoller([Self.pending, Self.pending]) { count in if count == 2 { idle.set(0.5) } }
        let wait = AnswerWait(settings: AnswerSettings(), idleClock: idle, poller: poller, now: { poller.now })
        #expect(wait.mayWait())
        #expect(await wait.settled("q1", until: 1_300) == nil)
        #expect(poller.slices == [AnswerWait.idleRecheckSeconds, AnswerWait.idleRecheckSeconds])
    }

    @Test("An answer ends the wait; the last slice is cut to the deadline")
    func answered() async {
        let poller = ScriptedPoller([Self.pending, Self.answered])
        let wait = AnswerWait(
            settings: AnswerSettings(policy: .always, waitSeconds: 400), idleClock: SetIdleClock(nil), poller: poller,
            now: { poller.now })
        #expect(await wait.settled("q1", until: 1_400) == Self.answered)
        #expect(poller.slices == [300, 100])
    }

    @Test("With no answer by the deadline, or a server that cannot be asked, the hook gives up")
    func givesUp() async {
        let timedOut = ScriptedPoller([Self.pending])
        let always = AnswerSettings(policy: .always, waitSeconds: 30)
        #expect(await AnswerWait(settings: always, idleClock: SetIdleClock(nil), poller: timedOut, now: { timedOut.now })
            .settled("q1", until: 1_030) == nil)
        let down = ScriptedPoller([nil])
        #expect(await AnswerWait(settings: always, idleClock: SetIdleClock(nil), poller: down, now: { down.now })
            .settled("q1", until: 1_030) == nil)
        #expect(!AnswerWait(settings: AnswerSettings(policy: .always, waitSeconds: 0), idleClock: SetIdleClock(nil), poller: down, now: { 0 }).mayWait())
    }
}
