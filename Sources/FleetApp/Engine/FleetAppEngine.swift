import FleetCore
import Foundation
import HTTPTypes

/// The app's Live Activity side, wired: session model, controller, manager, ActivityKit and the server.
///
/// Synchronous and single-threaded: every entry point runs to completion, calls ActivityKit through an
/// ``ActivityHost`` and queues server calls in a ``ControlPlaneOutbox`` without waiting. Whoever owns
/// it (the iOS driver on the main actor, or the simulator's event loop) feeds it what happens:
/// ActivityKit events (``handle(_:)``), server answers (``callAnswered(_:_:)``), due retries
/// (``fireDueTimers()``), the four sync triggers, and the suspension (``suspended()``). It reads time
/// from an injected clock, once per entry point. One engine is one process of the app: after a relaunch,
/// make a new one with the same storage.
public final class FleetAppEngine {
    public let configuration: AppConfiguration
    public let guards: GuardSet
    /// The session store the list shows and the card counts.
    public private(set) var model = SessionModel()
    /// The card writer.
    public private(set) var controller: FleetActivityController
    /// The token manager and dedupe.
    public private(set) var manager: LiveActivityManager
    /// What happened, oldest first (``takeTrace()`` drains it).
    public private(set) var trace: [AppTraceEntry] = []
    /// What the default server said of this device's mode and channel (iOS 18 channel cards), if asked.
    public private(set) var channelInfo: DeviceChannelInfo?
    /// When this process first saw each card (ActivityKit gives no start date): for the 8-hour renewal.
    var cardArrivals: [ActivityID: UnixTime] = [:]
    /// The channel each card this process requested follows (`pushType: .channel(id)`).
    var cardChannels: [ActivityID: String] = [:]
    /// The answers to questions sent from this process (``answerQuestion(_:with:sid:)``).
    public internal(set) var answerer = QuestionAnswerer()
    /// The alert and widget tokens, sent in every device registration once known.
    var tokens = DeviceTokens()

    let host: any ActivityHost
    let alerts: any AlertCenter
    /// The phone's sealing key pair (privacy mode's sealed alerts); nil: the configured `sealKey`, if any.
    let sealKeys: (any SealKeyring)?
    /// The key id this process already re-registered because the server named another (once per key, so a
    /// server that cannot keep keys is not asked again and again).
    var sealKeyRepairedFor: String?
    /// Privacy mode as the person chose it (starts as the configuration's; nil leaves it to the server).
    public internal(set) var privacy: Bool?
    let outbox: any ControlPlaneOutbox
    let storage: any KeyValueStorage
    let clock: WallClock
    var callCounter = 0
    var inFlight: [CallID: (server: ServerProfile, call: ControlPlaneCall)] = [:]
    var fetchOrdering = LiveFetchOrdering<(inout SessionModel) -> Void>()
    /// The newest fetch answered by each of the app's other servers (older answers are ignored).
    var otherFetchesApplied: [String: CallID] = [:]
    /// Whether the app is in the foreground, as far as this process knows (nil: never told).
    var appState: DeviceRegistration.AppState?
    /// The `appState` the default server was last sent in this run, so an unchanged one is not re-sent.
    var appStateSent: DeviceRegistration.AppState?
    /// What storage holds under ``endedReportsOwedKey`` (read at launch, written when it changes).
    var storedEndedReportsOwed: [String] = []

    /// Where the servers still owed an `/ended` report are kept between launches (a JSON array of names).
    public static let endedReportsOwedKey = "lfg.liveActivity.endedReportsOwed"

    public init(
        configuration: AppConfiguration, host: any ActivityHost, alerts: any AlertCenter,
        outbox: any ControlPlaneOutbox, storage: any KeyValueStorage, clock: WallClock, guards: GuardSet = .all,
        sealKeys: (any SealKeyring)? = nil, endGate: EndGate = EndGate(),
        backoff: RegistrationBackoff = RegistrationBackoff(), firstCallID: CallID = 1
    ) {
        callCounter = firstCallID - 1
        self.configuration = configuration
        self.host = host
        self.alerts = alerts
        self.sealKeys = sealKeys
        privacy = configuration.privacy
        self.outbox = outbox
        self.storage = storage
        self.clock = clock
        self.guards = guards
        controller = FleetActivityController(endGate: endGate)
        manager = LiveActivityManager(
            targets: configuration.registrationTargets(guards: guards).map(\.name), guards: guards, backoff: backoff)
    }

    // MARK: The four sync triggers

    /// Trigger 1, launch (`configure`): sweep the tombstones, re-attach to existing cards, observe the
    /// sequences, tell the server about this device, sync at once, and start the first refresh.
    /// `hiddenDirs` are the person's saved settings: without them the first sync would count hidden
    /// sessions and the device registration would clear the server's filter. `inForeground` (nil: not
    /// known) goes to the default server as the registration's `appState`.
    public func launch(cachedSessions: [SessionEntry] = [], hiddenDirs: HiddenDirs = [], inForeground: Bool? = nil) {
        model.hydrate(fromCache: cachedSessions)
        model.hiddenDirs = hiddenDirs
        appState = inForeground.map { $0 ? .foreground : .background }
        storedEndedReportsOwed = restoreEndedReportsOwed()
        restoreTokens()
        manage(.launched(
            fleet: host.fleetActivities, retired: host.retiredActivityIDs, endedReportsOwed: storedEndedReportsOwed))
        sendDeviceRegistration()
        sync(.launch)
        refresh()
    }

    /// Trigger 2, any observed change: applies `change` and syncs if the model changed (a `hiddenDirs`
    /// change is also sent to the server, so its card hides the same sessions). A change must set state
    /// (upsert, remove, set busy), never toggle it: it is replayed on top of a session listing that may
    /// predate it.
    public func changeModel(_ change: @escaping (inout SessionModel) -> Void) {
        let before = model
        change(&model)
        fetchOrdering.changeApplied(change)
        guard model != before else { return }
        if model.hiddenDirs != before.hiddenDirs { sendDeviceRegistration() }
        sync(.modelChanged)
    }

    /// Trigger 3 follows every completed refresh; this asks every server for its sessions (the list and
    /// the card show them merged; the default server's listing is the one the count is trusted on).
    public func refresh() {
        guard let server = configuration.defaultServer else { return }
        send(.fetchSessions, to: server)
        for other in configuration.servers where other.name != server.name { send(.fetchSessions, to: other) }
    }

    /// Trigger 4, foregrounding. After a suspension the model is a cache, so this sync leaves the card
    /// alone; call ``refresh()`` too: the sync that follows its answer is the one that counts.
    public func foregrounded() {
        reportAppState(.foreground)
        fetchDeviceInfo()
        sync(.foregrounded)
    }

    /// iOS is suspending the app: what it knows of the sessions becomes a cache, not a live answer, until
    /// a fetch sent after it wakes answers (answers to earlier fetches are ignored).
    public func suspended() {
        reportAppState(.background)
        model.demoteToCache()
        controller.noteSuspended()
        fetchOrdering.suspended()
    }

    // MARK: What happens to the app

    /// An ActivityKit sequence yielded something.
    public func handle(_ event: ActivityHostEvent) {
        switch event {
        case .activityArrived(let id):
            cardArrivals[id] = cardArrivals[id] ?? clock.now
            manage(.activityArrived(id, fleet: host.fleetActivities))
        case .pushToStartTokenIssued(let token):
            manage(.pushToStartTokenIssued(token))
        case .pushTokenIssued(let id, let token):
            manage(.pushTokenIssued(id, token))
        case .activityStateChanged(let id, let state, let content):
            manage(.activityStateChanged(id, state, content: content, fleet: host.fleetActivities))
        case .contentChanged(let id, _):
            restoreWords(on: id)
        }
    }

    /// A server answered call `id` (or it failed). Unknown ids are ignored.
    public func callAnswered(_ id: CallID, _ result: Result<ControlPlaneReply, ControlPlaneError>) {
        guard let (server, call) = inFlight.removeValue(forKey: id) else { return }
        let error: ControlPlaneError? = if case .failure(let failure) = result { failure } else { nil }
        record(.answered(id, call, server: server.name, error: error))
        switch call {
        case .registerToken(let registration, _, _):
            manage(.registrationAnswered(registration, server: server.name, succeeded: error == nil, at: clock.now))
        case .reportEnded:
            manage(.endedReportAnswered(server: server.name, succeeded: error == nil, at: clock.now))
        case .fetchSessions:
            let listing: SessionsReply? = if case .success(.sessions(let listing)) = result { listing } else { nil }
            guard server.name == configuration.defaultServer?.name else {
                // Another server's answer: newer than the last one applied from it, or ignored.
                guard let listing, id > (otherFetchesApplied[server.name] ?? 0) else { return }
                otherFetchesApplied[server.name] = id
                model.applyOtherServerFetch(listing, from: server.name)
                sync(.refreshCompleted)
                return
            }
            guard let replay = fetchOrdering.answered(id, succeeded: listing != nil), let listing else { return }
            model.applyLiveFetch(listing)
            for change in replay { change(&model) }
            sync(.refreshCompleted)
        case .putDevice:
            if error == nil, server.name == configuration.defaultServer?.name { fetchChannelInfo() }
        case .fetchDevice:
            guard case .success(.device(let info)) = result else { return }
            let previous = channelInfo
            channelInfo = info
            if server.name == configuration.defaultServer?.name { checkRegisteredSealKey(info.sealKeyId) }
            // A renewal rotated the channel: a card of ours on the old one is replaced (guard channel-rotation).
            if previous != info, survivorIsOnRetiredChannel { sync(.refreshCompleted) }
        case .reportChannelCard:
            // The channel changed under the app (a renewal, a fallback): read the current one.
            if case .rejected(404, _)? = error { fetchChannelInfo() }
        case .answerQuestion(let id, _, _):
            questionPosted(id, result)
        }
    }

    /// How long the kept card has been on screen, when the app is in the foreground (the only time it may
    /// start the successor); nil otherwise.
    var survivorAgeForRenewal: Double? {
        guard appState == .foreground, let survivor = host.fleetActivities.survivor,
            let arrived = cardArrivals[survivor.id]
        else { return nil }
        return clock.now - arrived
    }

    /// Whether the kept card is one this process requested on a channel the server no longer names as the
    /// device's (a renewal rotated it; its `/channel-card` report answered 404): nobody publishes there.
    var survivorIsOnRetiredChannel: Bool {
        guard let survivor = host.fleetActivities.survivor, let followed = cardChannels[survivor.id],
            let current = channelInfo, current.mode == "channel", let currentId = current.channelId
        else { return false }
        return followed != currentId
    }

    /// `GET /api/devices/{deviceId}` on the default server, when the app requests channel cards.
    func fetchChannelInfo() {
        guard configuration.requestsChannelCards, let server = configuration.defaultServer else { return }
        send(.fetchDevice(configuration.deviceID), to: server)
    }

    /// `GET /api/devices/{deviceId}` on the default server at foregrounding, when the app requests channel
    /// cards or holds a sealing key (to see that the server still has it).
    func fetchDeviceInfo() {
        guard configuration.requestsChannelCards || sealKeys != nil, let server = configuration.defaultServer
        else { return }
        send(.fetchDevice(configuration.deviceID), to: server)
    }

    /// The push type of the app's own new cards: the device's channel once the server named one.
    var newCardPushType: ActivityPushType {
        guard configuration.requestsChannelCards else { return .token }
        return channelInfo?.pushTypeForNewCards ?? .token
    }

    /// The id of the last call this engine sent (a relaunched app continues after it, so a late answer
    /// to the old process's call never matches a new one).
    public var lastCallID: CallID { callCounter }

    /// When the next registration or answer retry falls due, or nil.
    public var nextTimerDue: UnixTime? { [manager.nextRetryAt, answerer.nextRetryAt].compactMap { $0 }.min() }

    /// Sends the registration and answer retries due by now.
    public func fireDueTimers() {
        let now = clock.now
        fireDueAnswerRetries()
        guard let due = manager.nextRetryAt, due <= now else { return }
        manage(.retriesDue(at: now))
    }

    /// Takes the trace recorded so far.
    public func takeTrace() -> [AppTraceEntry] {
        defer { trace = [] }
        return trace
    }

    // MARK: Carrying out effects

    /// Runs the controller and carries out its decision: the manager stops a card's token tasks before
    /// the card is ended, and `/ended` is reported after.
    func sync(_ trigger: FleetActivityController.Trigger) {
        // Guard `stale-date`: the app's own requests and updates say when they stop being current, as the
        // server's pushes do, so a card the app wrote and nobody refreshes after it sleeps turns stale.
        let staleAfter = guards.isOn(.staleDate) ? configuration.cardStaleAfter : nil
        let staleDate = staleAfter.map { clock.now + $0 }
        let decision = controller.sync(
            trigger, model: model, cards: host.fleetActivities, now: clock.now, guards: guards,
            newCardPushType: newCardPushType, survivorAge: survivorAgeForRenewal, staleAfter: staleAfter,
            survivorIsOnRetiredChannel: appState == .foreground && survivorIsOnRetiredChannel)
        record(.synced(decision))
        for effect in decision.effects {
            switch effect {
            case .request(let content, let pushType):
                do {
                    let id = try host.request(content, pushType: pushType, staleDate: staleDate)
                    if case .channel(let channelId) = pushType { cardChannels[id] = channelId }
                    if case .channel(let channelId) = pushType, let server = configuration.defaultServer {
                        // The channel-mode twin of registering the card's update token: the server adopts it.
                        send(.reportChannelCard(channelId: channelId, deviceID: configuration.deviceID), to: server)
                    }
                } catch {
                    record(.requestRefused(error))
                }
            case .update(let id, let content):
                host.update(id, to: content, staleDate: staleDate)
            case .end(let id, let finalContent, let dismissal):
                manage(.appWillEnd(id))
                host.end(id, finalContent: finalContent, dismissal: dismissal)
            case .reportEnded:
                reportEnded()
            }
        }
    }

    /// Privacy mode (contract 8.3): a wordless push just wrote card `id`; put the words back, keeping the push's
    /// counts, phases and stale date (``FleetActivityController/restoringWords(to:model:now:guards:)``).
    func restoreWords(on id: ActivityID) {
        guard let card = host.fleetActivities.first(where: { $0.id == id && $0.state == .active }),
            let restored = controller.restoringWords(to: card, model: model, now: clock.now, guards: guards)
        else { return }
        host.update(id, to: restored, staleDate: card.staleDate)
    }

    func manage(_ event: LiveActivityManager.Event) {
        let effects = manager.handle(event)
        record(.managed(event, effects))
        for effect in effects {
            switch effect {
            case .observeActivityUpdates: host.observeActivityUpdates()
            case .observePushToStartTokens: host.observePushToStartTokens()
            case .observeActivity(let id): host.observeActivity(id)
            case .stopObservingActivity(let id): host.stopObservingActivity(id)
            case .end(let id, let dismissal): host.end(id, finalContent: nil, dismissal: dismissal)
            case .endRetired(let id): host.endRetired(id)
            case .noteEndedElsewhere(_, let cause, let finalContent):
                if controller.noteCardEndedElsewhere(cause, finalContent: finalContent) { reportEnded() }
            case .register(let registration, let serverName):
                let call = ControlPlaneCall.registerToken(
                    registration, env: configuration.environment, deviceID: configuration.deviceID)
                send(call, toServerNamed: serverName)
            case .reportEnded(let serverName):
                send(.reportEnded(env: configuration.environment, deviceID: configuration.deviceID),
                     toServerNamed: serverName)
            }
        }
        persistEndedReportsOwed()
    }

    /// Owes the servers an `/ended` report; the manager sends it and retries it until answered.
    func reportEnded() { manage(.cardEndToReport) }

    func sendDeviceRegistration() {
        for server in configuration.registrationTargets(guards: guards) { sendDeviceRegistration(to: server) }
    }

    /// `PUT /api/devices` to `server`; the default server also hears whether the app is in the foreground.
    func sendDeviceRegistration(to server: ServerProfile) {
        var registration = DeviceRegistration(
            env: configuration.environment, hiddenDirs: model.hiddenDirs, apnsToken: tokens.alert,
            widgetPushToken: tokens.widget)
        if configuration.requestsChannelCards { registration.liveActivityChannels = true }
        registration.privacy = privacy
        registration.sealKey = sealKeyForRegistration()
        if server.name == configuration.defaultServer?.name {
            registration.appState = appState
            appStateSent = appState
        }
        send(.putDevice(configuration.deviceID, registration), to: server)
    }

    /// Tells the default server the app came to the foreground or left it, unless it already knows.
    func reportAppState(_ state: DeviceRegistration.AppState) {
        appState = state
        guard state != appStateSent, let server = configuration.defaultServer else { return }
        sendDeviceRegistration(to: server)
    }

    func send(_ call: ControlPlaneCall, toServerNamed name: String) {
        guard let server = configuration.servers.first(where: { $0.name == name }) else { return }
        send(call, to: server)
    }

    func send(_ call: ControlPlaneCall, to server: ServerProfile) {
        callCounter += 1
        inFlight[callCounter] = (server, call)
        if case .fetchSessions = call, server.name == configuration.defaultServer?.name {
            fetchOrdering.fetchSent(callCounter)
        }
        record(.sent(callCounter, call, server: server.name))
        outbox.send(call, to: server, id: callCounter)
    }

    func record(_ event: AppTraceEvent) { trace.append(AppTraceEntry(at: clock.now, event: event)) }

    // MARK: The owed `/ended` reports

    func restoreEndedReportsOwed() -> [String] {
        guard let text = storage.string(forKey: Self.endedReportsOwedKey),
            let owed = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        else { return [] }
        return owed
    }

    func persistEndedReportsOwed() {
        let owed = manager.endedReportsOwed
        guard owed != storedEndedReportsOwed else { return }
        storedEndedReportsOwed = owed
        let text = owed.isEmpty ? nil : (try? WireJSON.encode(owed)).map { String(decoding: $0, as: UTF8.self) }
        storage.set(text, forKey: Self.endedReportsOwedKey)
    }
}
