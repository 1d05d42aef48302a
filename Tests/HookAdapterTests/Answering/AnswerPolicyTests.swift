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

/// A poller that answers from a script, advancing a fake wall clock by each slice it "waits" on a pending question.
final class ScriptedPoller: QuestionPoller {
    private struct State {
        var answers: [PollResult]
        var slices: [Double] = []
        var now: Double = 1_000
    }

    private let state: Mutex<State>
    /// Called after each poll (the test moves the idle clock here).
    let afterPoll: @Sendable (Int) -> Void

    init(_ answers: [PollResult], afterPoll: @escaping @Sendable (Int) -> Void = { _ in }) {
        state = Mutex(State(answers: answers))
        self.afterPoll = afterPoll
    }

    var slices: [Double] { state.withLock { $0.slices } }
    var now: Double { state.withLock { $0.now } }

    /// The wait loop's pause: moves the fake clock.
    func pause(_ seconds: Double) { state.withLock { $0.now += seconds } }

    /// An ``AnswerWait`` on this poller and its fake clock.
    func answerWait(_ settings: AnswerSettings, idle: any HostIdleClock) -> AnswerWait {
        AnswerWait(settings: settings, idleClock: idle, poller: self, now: { self.now }, pause: { self.pause($0) })
    }

    func wait(for id: QuestionID, seconds: Double) async -> PollResult {
        let (answer, count) = state.withLock { state -> (PollResult, Int) in
            guard !state.answers.isEmpty else {
                Issue.record("polled more often than the script says")
                return (.unreachable, state.slices.count)
            }
            state.slices.append(seconds)
            let answer = state.answers.removeFirst()
            // A long poll takes its whole slice only when the question stays pending; a 404 or an answer is at once.
            if case .question(let question) = answer, question.state == .pending { state.now += seconds }
            return (answer, state.slices.count)
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
        let wait = poller.answerWait(AnswerSettings(), idle: SetIdleClock(5))
        #expect(!wait.mayWait())
        #expect(await wait.settled("q1", until: 1_300) == nil)
        #expect(poller.slices.isEmpty)
    }

    @Test("A person who comes back mid-wait releases the hook at the next slice")
    func returningPersonReleases() async {
        let idle = SetIdleClock(120)
        let poller = ScriptedPoller([.question(Self.pending), .question(Self.pending)]) { count in if count == 2 { idle.set(0.5) } }
        let wait = poller.answerWait(AnswerSettings(), idle: idle)
        #expect(wait.mayWait())
        #expect(await wait.settled("q1", until: 1_300) == nil)
        #expect(poller.slices == [AnswerWait.idleRecheckSeconds, AnswerWait.idleRecheckSeconds])
    }

    @Test("An answer ends the wait; the last slice is cut to the deadline")
    func answered() async {
        let poller = ScriptedPoller([.question(Self.pending), .question(Self.answered)])
        let wait = poller.answerWait(AnswerSettings(policy: .always, waitSeconds: 400), idle: SetIdleClock(nil))
        #expect(await wait.settled("q1", until: 1_400) == Self.answered)
        #expect(poller.slices == [300, 100])
    }

    @Test("With no answer by the deadline, or a server that cannot be asked, the hook gives up")
    func givesUp() async {
        let timedOut = ScriptedPoller([.question(Self.pending)])
        let always = AnswerSettings(policy: .always, waitSeconds: 30)
        #expect(await timedOut.answerWait(always, idle: SetIdleClock(nil)).settled("q1", until: 1_030) == nil)
        let down = ScriptedPoller([.unreachable])
        #expect(await down.answerWait(always, idle: SetIdleClock(nil)).settled("q1", until: 1_030) == nil)
        #expect(!down.answerWait(AnswerSettings(policy: .always, waitSeconds: 0), idle: SetIdleClock(nil)).mayWait())
    }

    @Test("A question the server does not know yet is looked for again, for a few seconds only")
    func unknownAtFirst() async {
        let always = AnswerSettings(policy: .always, waitSeconds: 30)
        let late = ScriptedPoller([.unknown, .unknown, .question(Self.answered)])
        #expect(await late.answerWait(always, idle: SetIdleClock(nil)).settled("q1", until: 1_030) == Self.answered)
        let looks = Int(AnswerWait.unknownGraceSeconds / AnswerWait.unknownRetrySeconds)
        let never = ScriptedPoller(Array(repeating: .unknown, count: looks + 10))
        #expect(await never.answerWait(always, idle: SetIdleClock(nil)).settled("q1", until: 1_030) == nil)
        #expect((looks...looks + 2).contains(never.slices.count))
    }
}
