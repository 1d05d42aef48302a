import FleetApp
import FleetCore
import Testing

/// Lifecycle edges around the lettered situations: background dedupe, relaunch, the person's swipe.
@Suite struct LifecycleTests {
    @Test("Dedupe also runs in the background: a suspended app woken by a push-start ends the older card")
    func dedupeInBackground() throws {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let older = try #require(harness.liveCards.first).id
        harness.phone.suspend()

        harness.clock.advance(by: 60)
        let pushToStart = try #require(harness.host.pushToStartToken)
        guard case .applied(let newer) = harness.host.pushToStart(
            token: pushToStart, content: .fixture(working: ["a"], since: harness.now - 61, updatedAt: harness.now))
        else { throw CancellationError() }
        harness.run(for: 5)
        #expect(harness.liveCards.count == 2)  // suspended: nothing runs

        harness.phone.resumeInBackground()
        harness.run(for: 1)
        #expect(harness.liveCards.map(\.id) == [newer])
        #expect(harness.endCommands == [older])
    }

    @Test("At launch, two surviving cards are deduped before anything else addresses them")
    func dedupeAtLaunch() {
        var manager = LiveActivityManager(targets: ["home"])
        let older = FleetActivity(id: "b-older", content: ContentState(working: 1, updatedAt: 10))
        let newer = FleetActivity(id: "a-newer", content: ContentState(working: 1, updatedAt: 20))
        let effects = manager.handle(.launched(fleet: [older, newer], retired: []))
        #expect(effects == [
            .observeActivityUpdates, .observePushToStartTokens,
            .stopObservingActivity("b-older"), .end("b-older", dismissal: .immediate), .observeActivity("a-newer"),
        ])
    }

    @Test("A card the person swipes away stays away for the same sessions; the server is told; a new session brings it back")
    func personDismissal() throws {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)

        harness.host.personDismissed(card.id)
        harness.run(for: 1)
        harness.phone.foreground()
        harness.phone.app?.refresh()
        harness.run(for: 1)
        #expect(harness.liveCards.isEmpty)
        #expect(harness.requestCommands.count == 1)
        #expect(harness.endedReports.count == 1)

        harness.change { $0.upsert(SessionReport(title: "New", busy: true), for: "b") }
        #expect(harness.liveCards.count == 1)
        #expect(harness.requestCommands.count == 2)
    }
}

/// Settings the app restores at launch.
@Suite struct LaunchSettingsTests {
    @Test("The saved hiddenDirs apply from the first sync and reach the server with the device registration")
    func hiddenDirsAtLaunch() {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [.fixture("a", cwd: "/work/secret")])
        harness.phone.launch(inForeground: true, hiddenDirs: ["/work/secret"])
        harness.run(for: 1)
        #expect(harness.liveCards.isEmpty)
        let registrations = harness.calls.compactMap { sent -> DeviceRegistration? in
            if case .putDevice(_, let registration) = sent.call { registration } else { nil }
        }
        #expect(registrations.map(\.hiddenDirs) == [["/work/secret"]])
    }
}
