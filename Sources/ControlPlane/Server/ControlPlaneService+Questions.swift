import FleetCore
import Foundation
import HTTPTypes

/// How an answer ended (`POST /api/questions/{id}/answer`).
public enum QuestionAnswerOutcome: Hashable, Sendable {
    /// The first answer: it won (200).
    case answered(Question)
    /// The question was no longer pending: answered, expired or cancelled (409 with the question as it stands).
    case notPending(Question)
    /// Not one of a confirm/choice question's options, or blank text (400); nothing changed.
    case notAccepted(Question)
}

/// How a long poll starts (`GET /api/questions/{id}/wait`).
enum QuestionWaitStart: Sendable {
    /// The question is no longer pending: answer at once.
    case settled(Question)
    /// Parked until it resolves or the timeout passes.
    case parked(QuestionWaiters.Ticket)
    /// Too many waiters already.
    case full
}

extension [QuestionEffect] {
    /// The store writes among the effects (committed before anything else is carried out).
    var writes: [StoreWrite] {
        compactMap { effect in
            switch effect {
            case .save(let question): .putQuestion(question)
            case .forget(let ids): .deleteQuestions(ids)
            case .adopted, .alert, .withdraw, .resolved, .log: nil
            }
        }
    }
}

extension ControlPlaneService {
    // MARK: reading

    /// Every question, oldest first, optionally only those in `state`.
    public func questionList(state: Question.State? = nil) -> [Question] { questions.list(state: state) }

    /// One question by id.
    public func question(_ id: QuestionID) -> Question? { questions[id] }

    // MARK: changing

    /// Answers a question; the first answer wins. Throws only when the store failed (nothing changed).
    public func answerQuestion(_ id: QuestionID, _ answer: String, by deviceId: DeviceID?)
        async throws(ServiceError) -> QuestionAnswerOutcome
    {
        // Sharing a database, the phone may answer here before this instance heard of the question.
        _ = await knownQuestion(id)
        await acquire()
        defer { release() }
        var book = questions
        let result = book.answer(id, answer, by: deviceId, at: now)
        let outcome: QuestionAnswerOutcome
        let effects: [QuestionEffect]
        switch result {
        case .unknown: throw .notFound("no question '\(id)'")
        case .notAccepted(let question): return .notAccepted(question)
        case .answered(let question, let changes): (outcome, effects) = (.answered(question), changes)
        case .notPending(let question, let changes): (outcome, effects) = (.notPending(question), changes)
        }
        do { try await dependencies.store.commit(effects.writes) } catch {
            // Sharing a database: another instance settled it first (an answer, an expiry, the terminal).
            guard let settled = await adoptQuestionsSettledElsewhere(error)[id] else { throw .store(error) }
            return .notPending(settled)
        }
        questions = book
        await carryOut(effects)
        return outcome
    }

    /// Starts a long poll on `id` atomically with the question's state (no resolution slips between the
    /// check and the parking); nil when there is no such question (sharing a database: in the store either).
    func startWaiting(on id: QuestionID) async -> QuestionWaitStart? {
        guard await knownQuestion(id) != nil, let question = questions[id] else { return nil }
        guard question.state == .pending else { return .settled(question) }
        guard let ticket = questionWaiters.register(id) else { return .full }
        return .parked(ticket)
    }

    /// Expires every pending question past its expiry (each tick).
    func expireQuestions() async {
        await acquire()
        defer { release() }
        var book = questions
        let effects = book.expire(at: now)
        guard !effects.isEmpty else { return }
        do { try await dependencies.store.commit(effects.writes) } catch {
            // Another instance settled some first: take those as stored; the next tick expires the rest.
            if await !adoptQuestionsSettledElsewhere(error).isEmpty { return }
            dependencies.reportProblem("expiring questions failed: \(error); the next tick retries")
            return
        }
        questions = book
        await carryOut(effects)
    }

    /// Loads the stored questions at start (hold the lock): stale pending ones are cancelled or expired.
    func loadQuestions(_ stored: [Question], sessions: [SessionID: SessionReport]) async throws(StoreError) {
        var book = questions
        let effects = book.load(stored, sessions: sessions, at: now)
        if !effects.writes.isEmpty { try await dependencies.store.commit(effects.writes) }
        questions = book
        await carryOut(effects)
    }

    // MARK: carrying out

    /// Carries out committed question effects: wakes waiters, queues pushes, logs, tells `/api/events`.
    func carryOut(_ effects: [QuestionEffect]) async {
        var lines: [DecisionLogLine] = []
        var isChanged = false
        for effect in effects {
            switch effect {
            case .save(let question), .adopted(let question):
                publishQuestion(question)
                isChanged = true
            case .forget: break
            case .resolved(let question): questionWaiters.resolve(question.id)
            case .alert(let question): enqueue(.ask, question)
            case .withdraw(let question): enqueue(.withdraw, question)
            case .log(let line): lines.append(line)
            }
        }
        if isChanged { noteWidgetChange() }
        await record(lines)
    }

    /// Every device's token of one kind (alerts: `apnsToken`; widgets: `widgetPushToken`) with its env.
    private func targets(_ token: KeyPath<DeviceProfile, String?>, of devices: [DeviceID]? = nil) -> [QuestionPush.Target] {
        // Every device: only those with an app token can be reached (10,000 phones, a change a report).
        (devices ?? watcher.devicesWithAppTokens.sorted()).compactMap { deviceId -> QuestionPush.Target? in
            guard let profile = watcher.boxes[deviceId]?.record.profile, let hex = profile[keyPath: token],
                let env = profile.env
            else { return nil }
            return QuestionPush.Target(deviceId: deviceId, env: env, hex: hex)
        }
    }

    /// Something a widget shows changed: reload the widgets of every device whose 15 s window allows it
    /// now; the others are owed a reload when their window ends (``sendOwedWidgetReloads()``).
    func noteWidgetChange() {
        guard dependencies.questionNotifier != nil else { return }
        let devices = targets(\.widgetPushToken).map(\.deviceId)
        guard !devices.isEmpty else { return }
        enqueueWidgetReloads(widgetThrottle.changed(devices, at: now))
    }

    /// Each tick: the trailing reloads whose window ended.
    func sendOwedWidgetReloads() {
        enqueueWidgetReloads(widgetThrottle.due(at: now))
    }

    private func enqueueWidgetReloads(_ devices: [DeviceID]) {
        let due = targets(\.widgetPushToken, of: devices)
        guard !due.isEmpty else { return }
        widgetOutbox += due
        questionOutboxSignal.notify()
    }

    private func enqueue(_ action: QuestionPush.Action, _ question: Question) {
        guard dependencies.questionNotifier != nil else { return }
        var targets = targets(\.apnsToken)
        guard !targets.isEmpty else { return }
        let title = fleet.sessions[question.sid]?.title ?? ""
        let shownTitle = title.isEmpty ? "Your agent asks" : title
        if action == .ask { targets = targets.map { disclose(question, title: shownTitle, to: $0) } }
        questionOutbox.append(QuestionPush(action: action, question: question, title: shownTitle, targets: targets))
        questionOutboxSignal.notify()
    }

    /// Privacy mode (contract 8.3): what a question's alert shows Apple on one device. A sealing failure is
    /// said on stderr and counted; the alert then carries the placeholder alone, never the words.
    private func disclose(_ question: Question, title: String, to target: QuestionPush.Target) -> QuestionPush.Target {
        guard let profile = watcher.boxes[target.deviceId]?.record.profile else { return target }
        let words = AlertWords(title: title, body: question.text, options: question.options).fitted()
        let result = dependencies.alertSealing.disclosure(
            of: words, isPrivate: profile.isPrivate(byDefault: dependencies.policy.privacyByDefault),
            sealKey: profile.sealKey)
        if let failure = result.failure {
            alertSealingFailures += 1
            dependencies.reportProblem("question \(question.id) to device \(target.deviceId): not sealed (\(failure)); sent with the placeholder only")
        }
        var target = target
        target.disclosure = result.disclosure
        return target
    }

    private func publishQuestion(_ question: Question) {
        guard let data = try? WireJSON.encode(question) else { return }
        events.publish("question", json: data)
    }

    // MARK: sending

    /// Sends every queued question push (while the push gate is open), logs an `alert` line per device,
    /// and prunes alert tokens APNs calls dead (seed 002). The tick loop runs it; tests call it directly.
    public func sendQuestionPushes() async {
        let pushes = questionOutbox
        let widgets = widgetOutbox
        questionOutbox.removeAll()
        widgetOutbox.removeAll()
        guard !pushes.isEmpty || !widgets.isEmpty, let notifier = dependencies.questionNotifier else { return }
        if let reason = pushGateReason {
            dependencies.reportProblem("\(pushes.count + widgets.count) device push(es) not sent: \(reason)")
            return
        }
        async let reloads = widgets.isEmpty ? [] : notifier.reloadWidgets(widgets)
        let answers = await withTaskGroup(of: (Int, [QuestionPush.Result]).self) { group in
            for (index, push) in pushes.enumerated() { group.addTask { (index, await notifier.deliver(push)) } }
            var answers = [[QuestionPush.Result]](repeating: [], count: pushes.count)
            for await (index, results) in group { answers[index] = results }
            return answers
        }
        await recordDevicePushes(Array(zip(pushes, answers)), widgetReloads: await reloads)
    }

    private func recordDevicePushes(_ sent: [(QuestionPush, [QuestionPush.Result])], widgetReloads: [QuestionPush.Result])
        async
    {
        await acquire()
        defer { release() }
        let at = now
        var lines: [DecisionLogLine] = []
        var profiles: [DeviceID: DeviceProfile] = [:]
        var pruned: [DecisionLogLine] = []
        // Seed 002: a dead token is set to null; the app registers a new one with its next PUT. A token
        // re-registered while the push was out is someone else's news and is kept.
        func prune(_ result: QuestionPush.Result, _ token: WritableKeyPath<DeviceProfile, String?>, kind: String) {
            let deviceId = result.target.deviceId
            guard result.outcome == .tokenDead,
                var profile = profiles[deviceId] ?? watcher.boxes[deviceId]?.record.profile,
                profile[keyPath: token] == result.target.hex
            else { return }
            profile[keyPath: token] = nil
            profiles[deviceId] = profile
            pruned.append(QuestionLog.pruned(result, kind: kind, at: at))
        }
        for (push, results) in sent {
            for result in results {
                lines.append(QuestionLog.sent(push, result, at: at))
                prune(result, \.apnsToken, kind: "apns")
            }
        }
        for result in widgetReloads { prune(result, \.widgetPushToken, kind: "widget") }
        let prunes = profiles.keys.sorted().map { WatcherEvent.deviceReported($0, profiles[$0]!, at: at) }
        if !prunes.isEmpty {
            do {
                _ = try await apply(prunes)
                lines += pruned
            } catch {
                dependencies.reportProblem("pruning dead device tokens failed: \(error); the next push to them retries")
            }
        }
        await record(lines)
    }

    /// Sends question pushes whenever some are queued, until cancelled.
    func runQuestionPushes() async {
        let signal = questionOutboxSignal
        while !Task.isCancelled {
            await signal.wait()
            if Task.isCancelled { return }
            await sendQuestionPushes()
        }
    }
}
