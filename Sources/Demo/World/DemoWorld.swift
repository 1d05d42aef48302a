import FleetApp
import FleetAppTesting
import FleetCore
import HTTPTypes

/// The demo's simulated world around a real `lfg serve`: hosts reporting sessions and one phone, all
/// through the server's HTTP API, with the phone's lock screen driven by the pushes the APNs stand-in
/// accepted.
///
/// Time is explicit: ``advance(to:)`` plays the schedule up to a Unix time, moving the phone's clock
/// through every step and every ActivityKit event on the way, and awaits each HTTP call before going on.
/// The live demo calls it with the wall clock a few times a second (``play(wallClock:sleeper:every:)``);
/// tests call it with a manual time. One task owns a world: it is not `Sendable`.
public final class DemoWorld {
    /// The device id the simulated phone registers with.
    public static let deviceID: DeviceID = "demo-iphone"
    /// Seconds a push-to-start's background launch keeps the app running before iOS ends it again.
    public static let backgroundWindow = 4.0
    /// Seconds a suspended app lives before iOS evicts it (short: a locked demo phone runs nothing).
    public static let suspendedLifetime = 8.0

    public let schedule: DemoSchedule
    /// The simulated iPhone: iOS in memory and the real app library.
    public let phone: SimulatedPhone
    /// The Unix time of demo second 0.
    public let startedAt: UnixTime
    let clock: VirtualClock
    let api: any HTTPHandler
    let server: ServerProfile
    let pushes: PushInbox
    let narrate: (String) -> Void
    /// Demo seconds already played.
    var played = -1.0
    var isAppOpen = false
    /// When iOS ends the app's process (after a background wake, or some time after it was suspended).
    var evictAt: UnixTime?
    /// When iOS wakes the app after a push-to-start, in a cycle where it does so late.
    var wakeAt: UnixTime?
    var lastCardSummary = DemoWorld.noCard
    /// The agents holding for the phone's answer (their hook long-polls the question), by question.
    var waitingAgents: [QuestionID: SessionID] = [:]

    /// - Parameters:
    ///   - api: the server's HTTP API (over its socket in the demo; any handler in tests).
    ///   - pushes: where the APNs stand-in puts what it accepted.
    ///   - narrate: one line per notable step, for the person watching.
    public init(
        schedule: DemoSchedule, api: any HTTPHandler, bearerToken: String, startedAt: UnixTime, pushes: PushInbox,
        narrate: @escaping (String) -> Void = { _ in }
    ) {
        self.schedule = schedule
        self.api = api
        self.startedAt = startedAt
        self.pushes = pushes
        self.narrate = narrate
        clock = VirtualClock(now: startedAt)
        server = ServerProfile(name: "demo", baseURL: "in-process", bearerToken: bearerToken)
        let configuration = AppConfiguration(
            deviceID: Self.deviceID, environment: .sandbox, servers: [server], defaultServerName: server.name)
        // Zero latencies: the simulated iOS hands the app its tokens at once, so an app-made card is
        // registered before the server's next tick could push-start a second one.
        phone = SimulatedPhone(
            configuration: configuration, clock: clock.wallClock,
            behaviour: .init(tokenLatency: 0, deliveryLatency: 0, pushToStartFiresTwice: false),
            // Its own sealing key pair, made at the first launch and registered as `sealKey`: the server seals
            // each question alert to it (privacy mode) and only this phone opens them.
            sealKeys: DemoSealKeyring())
    }

    /// Seconds since the demo started, as far as it has been played.
    public var elapsed: Double { clock.now - startedAt }

    /// The live fleet cards on the phone's lock screen now.
    public var liveCards: [FleetActivity] { phone.host.visibleFleetCards.filter { $0.state.isLive } }

    /// Plays everything due up to Unix time `now`: schedule steps, the phone's ActivityKit events and
    /// retries, and the pushes the stand-in accepted so far.
    public func advance(to now: UnixTime) async {
        let target = now - startedAt
        for step in schedule.steps(after: played, through: target) {
            await runPhone(until: startedAt + step.at)
            await apply(step)
        }
        played = max(played, target)
        await runPhone(until: now)
        await releaseAnsweredAgents()
        narrateCardChange()
        // Nobody reads the app's trace here; draining it keeps a demo left running for hours small.
        _ = phone.takeTrace()
    }

    /// Advances with the wall clock every `step` until cancelled: the live demo's pacing.
    public func play(wallClock: @Sendable () -> UnixTime, sleeper: any Clock<Duration>, every step: Duration) async {
        while !Task.isCancelled {
            await advance(to: wallClock())
            do { try await sleeper.sleep(for: step, tolerance: nil) } catch { return }
        }
    }

    // MARK: Steps

    func apply(_ step: DemoStep) async {
        switch step.action {
        case .openApp:
            // iOS evicted the app since the last visit: this is a fresh launch with an empty store.
            if phone.app != nil { phone.terminate() }
            isAppOpen = true
            evictAt = nil
            wakeAt = nil
            phone.launch(inForeground: true)
            // iOS hands over the device's APNs token at every launch; question alerts go to it.
            phone.app?.alertTokenIssued(Self.alertToken)
            say(step.at, "phone", "the app is opened (it registers its tokens)")
        case .leaveApp:
            isAppOpen = false
            phone.suspend()
            evictAt = clock.now + Self.suspendedLifetime
            say(step.at, "phone", "locked: from now on only server pushes move the card")
        case .hostGoesDown(let host):
            say(step.at, host.rawValue, "drops off the network (heartbeats stop; its sessions turn unknown)")
        case .answerFromPhone(let sid, let answer):
            answerFromPhone(sid, answer, at: step.at)
        default:
            await report(step)
        }
        await sendCalls()
    }

    func report(_ step: DemoStep) async {
        guard let request = HostReport.request(
            for: step.action, ttlSeconds: schedule.hostTTL, bearerToken: server.bearerToken)
        else { return }
        let answer = await api.respond(to: request)
        if !(200..<300).contains(answer.status) {
            let text = answer.bodyData.map { String(decoding: $0, as: UTF8.self) } ?? ""
            narrate("demo: \(request.method) \(request.path) answered \(answer.status) \(text)")
        }
        if let line = Self.narration(of: step.action) { say(step.at, line.who, line.what) }
        if case .ask(let sid, let prompt) = step.action, let id = prompt.id { waitingAgents[QuestionID(id)] = sid }
        // The open app hears of the change at once (its event stream), as the real one does.
        if isAppOpen, case .heartbeat = step.action {} else if isAppOpen { phone.app?.refresh() }
    }

    /// One narration line: demo time, who, what.
    func say(_ at: Double, _ who: String, _ what: String) {
        narrate(Self.clockLabel(at) + "  " + who.padding(toLength: 8, withPad: " ", startingAt: 0) + what)
    }

    static func clockLabel(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let remainder = whole % 60
        return "\(whole / 60):" + (remainder < 10 ? "0" : "") + "\(remainder)"
    }
}
