import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// A simulated phone whose server answers every call at once, driven in virtual time.
final class PhoneHarness {
    static let home = ServerProfile(name: "home", baseURL: "https://home.example:8766", bearerToken: "secret")
    static let lab = ServerProfile(name: "lab", baseURL: "https://lab.example:8766", bearerToken: "secret")
    static let deviceID: DeviceID = "phone-1"

    let clock = VirtualClock(now: 1_764_400_000)
    let phone: SimulatedPhone
    /// What `GET /api/sessions` answers.
    var listing = SessionsReply(sessions: [])
    /// While true, session fetches stay unanswered (a background launch before its first refresh lands).
    var holdsSessionFetches = false
    /// Servers whose calls fail as unreachable.
    var failingServers: Set<String> = []
    /// What `GET /api/devices/{id}` answers (nil: a plain 200 with no body, as for token mode).
    var deviceInfo: DeviceChannelInfo?
    /// The channels `/channel-card` accepts (nil: all); any other answers 404.
    var liveChannels: Set<String>?
    /// Every call answered, oldest first.
    private(set) var answered: [InMemoryControlPlaneOutbox.Sent] = []

    init(guards: GuardSet = .all, servers: [ServerProfile] = [PhoneHarness.home],
         behaviour: InMemoryActivityHost.Behaviour = .init(), storage: any KeyValueStorage = InMemoryKeyValueStorage(),
         requestsChannelCards: Bool = false, privacy: Bool? = nil, sealKeys: (any SealKeyring)? = nil) {
        var configuration = AppConfiguration(
            deviceID: Self.deviceID, environment: .sandbox, servers: servers, defaultServerName: "home")
        configuration.requestsChannelCards = requestsChannelCards
        configuration.privacy = privacy
        phone = SimulatedPhone(
            configuration: configuration, clock: clock.wallClock, storage: storage, behaviour: behaviour, guards: guards,
            sealKeys: sealKeys)
    }

    /// A foreground app whose listing holds `sids` (working), run until its own card is up.
    static func withAppCard(
        _ sids: [SessionID] = ["a"], behaviour: InMemoryActivityHost.Behaviour = .init()
    ) throws -> (PhoneHarness, card: FleetActivity) {
        let harness = PhoneHarness(behaviour: behaviour)
        harness.listing = SessionsReply(sessions: sids.map { .fixture($0) })
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        return (harness, try #require(harness.liveCards.first))
    }

    var host: InMemoryActivityHost { phone.host }
    var now: UnixTime { clock.now }

    /// Runs everything due in the next `seconds` of virtual time, answering calls as they are sent.
    func run(for seconds: Double = 1) {
        let end = clock.now + seconds
        answerQueued()
        phone.runDue()
        answerQueued()
        while let due = phone.nextDueTime, due <= end {
            clock.advance(to: due)
            phone.runDue()
            answerQueued()
        }
        clock.advance(to: end)
        phone.runDue()
        answerQueued()
    }

    /// Answers every queued call; session fetches only while not held.
    func answerQueued() {
        var held: [InMemoryControlPlaneOutbox.Sent] = []
        while !phone.outbox.queued.isEmpty {
            for sent in phone.outbox.takeQueued() {
                if case .fetchSessions = sent.call, holdsSessionFetches {
                    held.append(sent)
                    continue
                }
                answered.append(sent)
                phone.answer(sent.id, answer(for: sent))
            }
        }
        heldFetches += held
    }

    private(set) var heldFetches: [InMemoryControlPlaneOutbox.Sent] = []

    /// Answers the held session fetches with the current listing.
    func releaseHeldFetches() {
        holdsSessionFetches = false
        let held = heldFetches
        heldFetches = []
        for sent in held { phone.answer(sent.id, answer(for: sent)) }
        answered += held
    }

    func answer(for sent: InMemoryControlPlaneOutbox.Sent) -> Result<ControlPlaneReply, ControlPlaneError> {
        if failingServers.contains(sent.server) { return .failure(.unreachable("test: \(sent.server) is off")) }
        switch sent.call {
        case .fetchSessions: return .success(.sessions(listing))
        case .fetchDevice: return deviceInfo.map { .success(.device($0)) } ?? .success(.accepted)
        case .reportChannelCard(let channelId, _) where liveChannels.map({ !$0.contains(channelId) }) ?? false:
            return .failure(.rejected(status: 404, message: "test: no such channel"))
        default: return .success(.accepted)
        }
    }

    // MARK: Reading what happened

    /// Every call the app sent, oldest first.
    var calls: [InMemoryControlPlaneOutbox.Sent] { phone.outbox.history }

    /// The token registrations sent, as (server, kind, token).
    var registrations: [(server: String, registration: TokenRegistration)] {
        calls.compactMap { sent in
            guard case .registerToken(let registration, _, _) = sent.call else { return nil }
            return (sent.server, registration)
        }
    }

    /// The device registrations sent (`PUT /api/devices`), oldest first.
    var deviceRegistrations: [DeviceRegistration] {
        calls.compactMap { sent in
            guard case .putDevice(_, let registration) = sent.call else { return nil }
            return registration
        }
    }

    /// How many `/ended` reports were sent.
    var endedReports: [InMemoryControlPlaneOutbox.Sent] {
        calls.filter { if case .reportEnded = $0.call { true } else { false } }
    }

    /// The live fleet cards.
    var liveCards: [FleetActivity] { host.fleetActivities.liveCards }

    /// ActivityKit commands of one shape.
    var endCommands: [ActivityID] {
        host.commands.compactMap { if case .end(let id, _, _) = $0 { id } else { nil } }
    }

    var updateCommands: [(ActivityID, ContentState)] {
        host.commands.compactMap { if case .update(let id, let content) = $0 { (id, content) } else { nil } }
    }

    var requestCommands: [(ActivityID, ActivityPushType)] {
        host.commands.compactMap { if case .request(let id, _, let type) = $0 { (id, type) } else { nil } }
    }

    /// Changes the app's model (trigger 2).
    func change(_ body: @escaping (inout SessionModel) -> Void) { phone.app?.changeModel(body) }
}

extension SessionsReply.Session {
    /// A listed session with sensible defaults.
    static func fixture(
        _ sid: SessionID, title: String? = nil, host: HostID = .local, cwd: String = "/work", busy: Bool = true,
        prompt: Prompt? = nil, displayState: DisplayState? = nil
    ) -> Self {
        let report = SessionReport(title: title ?? "Session \(sid)", host: host, cwd: cwd, busy: busy, prompt: prompt)
        return Self(sid: sid, report: report, displayState: displayState)
    }
}

extension ContentState {
    /// A card content with one working row per sid, as a server would have pushed it.
    static func fixture(working sids: [SessionID], since: UnixTime, updatedAt: UnixTime) -> ContentState {
        ContentState(
            working: sids.count, rows: sids.map { Row(sid: $0, title: "Session \($0)", state: .working, since: since) },
            more: 0, updatedAt: updatedAt)
    }
}
