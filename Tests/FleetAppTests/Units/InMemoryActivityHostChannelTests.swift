import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// The in-memory ActivityKit's iOS 18 side and honest staleness: stale dates, channels, refused starts.
@Suite struct InMemoryActivityHostChannelTests {
    let clock = VirtualClock(now: 1_000)

    func runningHost(supportsChannels: Bool = true) -> InMemoryActivityHost {
        let host = InMemoryActivityHost(
            clock: clock.wallClock, behaviour: .init(supportsChannels: supportsChannels))
        host.appLaunched(inForeground: true)
        host.observeActivityUpdates()
        return host
    }

    @Test("iOS marks a card stale at its stale date; a newer update with a later stale date makes it fresh")
    func staleAtStaleDate() throws {
        let host = runningHost()
        let token = try #require(host.pushToStartToken)
        guard case .applied(let id) = host.pushToStart(token: token, content: ContentState(working: 1), staleDate: 1_600)
        else { Issue.record("the start did not apply"); return }
        clock.advance(to: 1_599)
        #expect(host.fleetActivities.first?.state == .active)
        clock.advance(to: 1_600)
        let card = try #require(host.fleetActivities.first { $0.id == id })
        #expect(card.state == .stale)
        #expect(card.isMarkedStale(at: clock.now))
        clock.advance(by: 5)
        let tokenless = host.deliverBroadcast(.update(ContentState(working: 2), timestamp: 1_605), onChannel: "none")
        #expect(tokenless.isEmpty)
    }

    @Test("A card push-started on a channel follows its broadcasts and has no update token")
    func channelCardFollowsBroadcasts() throws {
        let host = runningHost()
        let token = try #require(host.pushToStartToken)
        guard case .applied(let id) = host.pushToStart(
            token: token, content: ContentState(working: 1), staleDate: 1_900, inputPushChannel: "Y2hhbm5lbA==")
        else { Issue.record("the start did not apply"); return }
        clock.advance(by: 2)
        #expect(host.updateToken(of: id) == nil)
        #expect(host.channel(of: id) == "Y2hhbm5lbA==")
        let took = host.deliverBroadcast(
            .update(ContentState(working: 3), timestamp: 1_002, staleDate: 2_000), onChannel: "Y2hhbm5lbA==")
        #expect(took == [id])
        let card = try #require(host.fleetActivities.first)
        #expect(card.content.working == 3)
        #expect(card.staleDate == 2_000)
    }

    @Test("A start naming a deleted channel, or any channel on iOS 17, starts nothing")
    func channelStartRefused() throws {
        let host = runningHost()
        let token = try #require(host.pushToStartToken)
        let deleted = host.pushToStart(
            token: token, content: ContentState(working: 1), inputPushChannel: "Z29uZQ==", channelExists: false)
        #expect(deleted == .startedNothing)
        let old = runningHost(supportsChannels: false)
        let oldToken = try #require(old.pushToStartToken)
        #expect(old.pushToStart(token: oldToken, content: ContentState(working: 1), inputPushChannel: "Y2g=") == .startedNothing)
        #expect(throws: ActivityRequestError.self) {
            _ = try old.request(ContentState(working: 1), pushType: .channel("Y2g="))
        }
        #expect(host.fleetActivities.isEmpty && old.fleetActivities.isEmpty)
    }

    @Test("The app's own update clears the stale date, as ActivityContent(staleDate: nil) does")
    func appUpdateClearsStaleDate() throws {
        let host = runningHost()
        let id = try host.request(ContentState(working: 1), pushType: .channel("Y2g="))
        host.deliverBroadcast(.update(ContentState(working: 2), timestamp: 1_001, staleDate: 1_100), onChannel: "Y2g=")
        host.update(id, to: ContentState(working: 3))
        clock.advance(to: 5_000)
        #expect(host.fleetActivities.first?.staleDate == nil)
        #expect(host.fleetActivities.first?.state == .active)
    }
}
