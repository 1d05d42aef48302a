import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// The in-memory ActivityKit behaves as the reference documents iOS.
@Suite struct InMemoryActivityHostTests {
    let clock = VirtualClock(now: 1_000)

    func runningHost(_ behaviour: InMemoryActivityHost.Behaviour = .init()) -> InMemoryActivityHost {
        let host = InMemoryActivityHost(clock: clock.wallClock, behaviour: behaviour)
        host.appLaunched(inForeground: true)
        host.observeActivityUpdates()
        return host
    }

    func drain(_ host: InMemoryActivityHost, for seconds: Double) -> [ActivityHostEvent] {
        clock.advance(by: seconds)
        var events: [ActivityHostEvent] = []
        while let event = host.takeNextDueEvent() { events.append(event) }
        return events
    }

    @Test("A card requested with push type token gets its update token asynchronously, once observed")
    func tokenArrivesLater() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1), pushType: .token)
        host.observeActivity(id)
        #expect(host.updateToken(of: id) == nil)
        #expect(host.takeNextDueEvent() == nil)
        let events = drain(host, for: 1)
        let token = try #require(host.updateToken(of: id))
        #expect(events == [.activityArrived(id), .pushTokenIssued(id, token)])
    }

    @Test("A card requested with no push type never gets a token")
    func noPushTypeNoToken() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1), pushType: .none)
        host.observeActivity(id)
        #expect(drain(host, for: 3600) == [.activityArrived(id)])
        #expect(host.updateToken(of: id) == nil)
    }

    @Test("An update token exists only while its card lives; pushes to it afterwards are dropped")
    func tokenDiesWithCard() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1), pushType: .token)
        _ = drain(host, for: 1)
        let token = try #require(host.updateToken(of: id))
        host.end(id, finalContent: nil, dismissal: .immediate)
        #expect(host.updateToken(of: id) == nil)
        #expect(host.deliver(.update(ContentState(working: 2), timestamp: 2_000), toUpdateToken: token) == .droppedNoLiveCard)
    }

    @Test("The push-to-start token is re-minted on every launch and yielded twice")
    func pushToStartReminted() throws {
        let host = runningHost()
        let first = try #require(host.pushToStartToken)
        host.observePushToStartTokens()
        #expect(drain(host, for: 1) == [.pushToStartTokenIssued(first), .pushToStartTokenIssued(first)])
        host.appTerminated()
        host.appLaunched(inForeground: false)
        #expect(host.pushToStartToken != first)
        #expect(host.pushToStart(token: first, content: ContentState(working: 1)) == .startRefused)
    }

    @Test("A push-started card arrives through activityUpdates with its own update token")
    func pushStartedCardArrives() throws {
        let host = runningHost()
        let token = try #require(host.pushToStartToken)
        guard case .applied(let id) = host.pushToStart(token: token, content: ContentState(working: 1)) else {
            Issue.record("refused")
            return
        }
        host.observeActivity(id)
        let events = drain(host, for: 1)
        #expect(events.first == .activityArrived(id))
        #expect(events.count == 2)
    }

    @Test("A card can only be requested from the foreground")
    func backgroundRequestRefused() {
        let host = runningHost()
        host.appBackgrounded()
        #expect(throws: ActivityRequestError.visibility) {
            try host.request(ContentState(working: 1), pushType: .token)
        }
    }

    @Test("A terminated app loses what was queued for it and every observation")
    func terminationDropsEvents() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1), pushType: .token)
        host.observeActivity(id)
        host.appTerminated()
        host.appLaunched(inForeground: false)
        #expect(drain(host, for: 5) == [])
        #expect(!host.isObserving(id))
        #expect(host.updateToken(of: id) != nil)
    }

    @Test("A push older than what the card shows is ignored")
    func olderPushIgnored() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1, updatedAt: 1_000), pushType: .token)
        _ = drain(host, for: 1)
        let token = try #require(host.updateToken(of: id))
        #expect(host.deliver(.update(ContentState(working: 3), timestamp: 999), toUpdateToken: token) == .ignoredAsOlder(id))
        #expect(host.deliver(.update(ContentState(working: 2), timestamp: 1_001), toUpdateToken: token) == .applied(id))
        #expect(host.fleetActivities.map(\.content.working) == [2])
    }

    @Test("An ended card with the default policy stays visible for 4 hours, then is dismissed")
    func endedCardLingers() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1), pushType: .token)
        host.end(id, finalContent: nil, dismissal: .default)
        clock.advance(by: 4 * 3600 - 1)
        #expect(host.visibleFleetCards.map(\.state) == [.ended])
        clock.advance(by: 1)
        #expect(host.visibleFleetCards.isEmpty)
    }

    @Test("Starting a card past the activity limit is refused")
    func limitReached() throws {
        let host = runningHost(.init(maxActivities: 1))
        _ = try host.request(ContentState(working: 1), pushType: .token)
        #expect(throws: ActivityRequestError.targetMaximumExceeded) {
            try host.request(ContentState(working: 1), pushType: .token)
        }
    }
}
