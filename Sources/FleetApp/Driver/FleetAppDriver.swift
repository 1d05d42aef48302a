import FleetCore
import Foundation

/// Runs a ``FleetAppEngine`` on the main actor in the real app: ActivityKit events in, server calls out
/// through a ``ControlPlaneClient``, registration retries on an injected clock.
///
/// Every task it starts is owned: one per call in flight, one retry timer, each cancelled by ``stop()``.
/// The host's event stream is consumed by ``run(events:)``, which the app awaits from a task it owns
/// (SwiftUI's `.task`). The simulator does not use this type: it drives the engine directly.
@MainActor
public final class FleetAppDriver {
    /// The engine; read its model and trace freely, but change it only through this driver.
    public let engine: FleetAppEngine
    let outbox = InMemoryControlPlaneOutbox()
    let client: any ControlPlaneClient
    let phoneClock: WallClock
    var callTasks: [CallID: Task<Void, Never>] = [:]
    let timer: DeadlineTimer
    /// Called after every change the driver carries out (the app's view model re-reads the engine then).
    public var onChange: (() -> Void)?
    /// Called with each call's outcome (nil: it succeeded) once the engine has taken it: the live
    /// connection learns from it whether fetches get through.
    public var onCallAnswered: ((ControlPlaneCall, ControlPlaneError?) -> Void)?

    public init(
        configuration: AppConfiguration, host: any ActivityHost, alerts: any AlertCenter, client: any ControlPlaneClient,
        storage: any KeyValueStorage, phoneClock: WallClock, sleeper: any Clock<Duration>, guards: GuardSet = .all,
        sealKeys: (any SealKeyring)? = nil
    ) {
        self.client = client
        self.phoneClock = phoneClock
        self.timer = DeadlineTimer(clock: phoneClock, sleeper: sleeper)
        engine = FleetAppEngine(
            configuration: configuration, host: host, alerts: alerts, outbox: outbox, storage: storage, clock: phoneClock,
            guards: guards, sealKeys: sealKeys)
    }

    // MARK: The app's entry points (each ends by starting the calls the engine queued)

    /// Trigger 1: call from the app's init; `inForeground` is whether iOS launched it on screen (nil: unknown).
    public func launch(cachedSessions: [SessionEntry] = [], hiddenDirs: HiddenDirs = [], inForeground: Bool? = nil) {
        drive { $0.launch(cachedSessions: cachedSessions, hiddenDirs: hiddenDirs, inForeground: inForeground) }
    }

    /// Trigger 2: a change to the session store or the settings.
    public func changeModel(_ change: @escaping (inout SessionModel) -> Void) { drive { $0.changeModel(change) } }

    /// Asks the server for the sessions; trigger 3 runs when it answers.
    public func refresh() { drive { $0.refresh() } }

    /// Trigger 4: `scenePhase == .active`; call ``refresh()`` too (after a suspension only its answer counts).
    public func foregrounded() { drive { $0.foregrounded() } }

    /// `scenePhase == .background`: iOS is about to suspend the app.
    public func suspended() { drive { $0.suspended() } }

    /// The device's APNs token arrived (question alerts go to it).
    public func alertTokenIssued(_ token: PushToken) { drive { $0.alertTokenIssued(token) } }

    /// The widget push token arrived.
    public func widgetTokenIssued(_ token: PushToken) { drive { $0.widgetTokenIssued(token) } }

    /// The person turned privacy mode on or off; see ``FleetAppEngine/privacyChanged(_:)``.
    public func privacyChanged(_ isOn: Bool) { drive { $0.privacyChanged(isOn) } }

    /// A new sealing key pair in place of the current one; see ``FleetAppEngine/rotateSealKey()``.
    public func rotateSealKey() { drive { $0.rotateSealKey() } }

    /// An answer from the card or the app; see ``FleetAppEngine/answerQuestion(_:with:sid:)``.
    public func answerQuestion(_ id: QuestionID, with answer: String, sid: SessionID? = nil) {
        drive { $0.answerQuestion(id, with: answer, sid: sid) }
    }

    /// The person acted on a question's alert; returns the place to open, if any.
    public func respond(to response: QuestionResponse) -> AppLink? {
        var link: AppLink?
        drive { link = $0.respond(to: response) }
        return link
    }

    /// A question arrived on the live connection; a settled one's alert is removed.
    public func questionStreamed(_ question: Question) { drive { $0.questionStreamed(question) } }

    /// A background push's JSON; returns whether it was a `question.updated` push (its alert is removed).
    public func backgroundPushReceived(_ payload: Data) -> Bool {
        var handled = false
        drive { handled = $0.backgroundPushReceived(payload) }
        return handled
    }

    /// Hands the engine every ActivityKit event until the stream ends or the task is cancelled.
    public func run(events: AsyncStream<ActivityHostEvent>) async {
        for await event in events {
            drive { $0.handle(event) }
        }
    }

    /// Waits until no call is in flight (for tests and orderly shutdown).
    public func waitForCalls() async {
        while let task = callTasks.values.first { await task.value }
    }

    /// Cancels every call in flight and the retry timer.
    public func stop() {
        callTasks.values.forEach { $0.cancel() }
        callTasks = [:]
        timer.cancel()
    }

    // MARK: Carrying out

    func drive(_ body: (FleetAppEngine) -> Void) {
        body(engine)
        for sent in outbox.takeQueued() { start(sent) }
        scheduleTimer()
        onChange?()
    }

    func start(_ sent: InMemoryControlPlaneOutbox.Sent) {
        guard let server = engine.configuration.servers.first(where: { $0.name == sent.server }) else { return }
        let client = client
        callTasks[sent.id] = Task { [weak self] in
            let result: Result<ControlPlaneReply, ControlPlaneError>
            do throws(ControlPlaneError) {
                result = .success(try await client.perform(sent.call, on: server))
            } catch {
                result = .failure(error)
            }
            guard let self, !Task.isCancelled else { return }
            self.callTasks[sent.id] = nil
            self.drive { $0.callAnswered(sent.id, result) }
            if case .failure(let error) = result { self.onCallAnswered?(sent.call, error) } else {
                self.onCallAnswered?(sent.call, nil)
            }
        }
    }

    func scheduleTimer() {
        timer.schedule(engine.nextTimerDue) { [weak self] in
            guard let self else { return }
            self.drive { $0.fireDueTimers() }
        }
    }
}
