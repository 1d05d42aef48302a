import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import Testing

/// The values the app's screens draw: built from FleetApp's state, tested here since the SwiftUI files
/// that show them cannot run on Linux.
@Suite struct SessionListTests {
    func model(_ sessions: [SessionsReply.Session], hidden: HiddenDirs = []) -> SessionModel {
        var model = SessionModel()
        model.applyLiveFetch(SessionsReply(sessions: sessions))
        model.hiddenDirs = hidden
        return model
    }

    @Test("Sessions are grouped by host; within a host needs-you comes first, then working by age, then the rest")
    func groupsAndOrders() {
        let prompt = Prompt(kind: .permission, text: "Run rm?")
        let listing = model([
            .fixture("idle", host: "mac", busy: false),
            .fixture("late", host: "mac"),
            .fixture("early", host: "mac"),
            .fixture("asks", host: "mac", prompt: prompt),
            .fixture("box1", host: "box"),
        ])
        let since: SinceMap = [
            "late": SinceEntry(state: .working, since: 200), "early": SinceEntry(state: .working, since: 100),
            "asks": SinceEntry(state: .needsInput, since: 300), "box1": SinceEntry(state: .working, since: 50),
        ]
        let sections = SessionList.sections(model: listing, since: since)
        #expect(sections.map(\.host) == ["box", "mac"])
        #expect(sections[1].rows.map(\.sid) == ["asks", "early", "late", "idle"])
        #expect(sections[1].rows.map(\.stateLabel) == ["Needs you", "Working", "Working", "Idle"])
        #expect(sections[1].rows.map(\.since) == [300, 100, 200, nil])
        #expect(sections[1].needsInputCount == 1)
        #expect(sections[1].rows[0].prompt == prompt)
    }

    @Test("A hidden folder's sessions leave the list as they leave the card; a down host reads 'Host down'")
    func hiddenAndDown() {
        let listing = model(
            [.fixture("secret", cwd: "/work/secret/app"), .fixture("shown", host: "box", displayState: .unknown)],
            hidden: ["/work/secret"])
        let sections = SessionList.sections(model: listing, since: [:])
        #expect(sections.map(\.host) == ["box"])
        #expect(sections[0].isHostDown)
        #expect(sections[0].rows.map(\.stateLabel) == ["Host down"])
        #expect(sections[0].rows[0].since == nil)
    }
}

@Suite struct AppSettingsTests {
    @Test("Settings survive a relaunch; the credential is never among them")
    func roundTrip() throws {
        let storage = InMemoryKeyValueStorage()
        var settings = AppSettings(server: .init(name: "mac:8766", baseURL: "https://mac:8766"), privacy: true)
        settings.hide("/work/secret/")
        settings.hide("/work/secret")
        settings.hide("  ")
        try settings.save(to: storage)
        let loaded = try AppSettings.load(from: storage)
        #expect(loaded == settings)
        #expect(loaded.hiddenDirs.paths == ["/work/secret"])
        #expect(storage.string(forKey: AppSettings.storageKey)?.contains("bearer") == false)
        #expect(loaded.serverProfile(credential: "lfgd.1.s") == ServerProfile(
            name: "mac:8766", baseURL: "https://mac:8766", bearerToken: "lfgd.1.s"))
        #expect(loaded.serverProfile(credential: nil) == nil)
        var shown = loaded
        shown.unhide("/work/secret")
        #expect(shown.hiddenDirs.paths.isEmpty)
    }

    @Test("Privacy is unset until the person sets it (the server's default applies); a kept choice reads back")
    func privacyUnsetByDefault() throws {
        #expect(AppSettings().privacy == nil)
        let storage = InMemoryKeyValueStorage()
        storage.set(#"{"hiddenDirs": [], "privacy": false}"#, forKey: AppSettings.storageKey)
        #expect(try AppSettings.load(from: storage).privacy == false)
        storage.set(#"{"hiddenDirs": []}"#, forKey: AppSettings.storageKey)
        #expect(try AppSettings.load(from: storage).privacy == nil)
    }

    @Test("No saved settings load as defaults; unreadable ones are an error naming what to do, not a silent reset")
    func missingAndUnreadable() throws {
        let storage = InMemoryKeyValueStorage()
        #expect(try AppSettings.load(from: storage) == AppSettings())
        storage.set("{not json", forKey: AppSettings.storageKey)
        #expect(throws: AppSettingsError.self) { try AppSettings.load(from: storage) }
        #expect(storage.string(forKey: AppSettings.storageKey) == "{not json")
    }
}

@Suite struct FleetCountsSnapshotTests {
    @Test("The widget's snapshot counts what the card counts; saving reports a change only when the counts change")
    func snapshotFollowsTheCard() throws {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [.fixture("a"), .fixture("b", prompt: Prompt(kind: .question, text: "?"))])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let engine = try #require(harness.phone.app)
        let snapshot = FleetCountsSnapshot.make(engine: engine, now: harness.now)
        #expect(snapshot.isTrustworthy)
        #expect(snapshot.summary == "2 active · 1 working · 1 needs you")
        let storage = InMemoryKeyValueStorage()
        #expect(try snapshot.save(to: storage))
        var later = snapshot
        later.writtenAt += 60
        #expect(try later.save(to: storage) == false)  // same counts: no widget reload
        #expect(FleetCountsSnapshot.load(from: storage) == later)
    }

    @Test("Before a live fetch the snapshot is not trusted, and an empty one reads 'Unknown' rather than a zero")
    func untrustedZeroIsUnknown() {
        let empty = FleetCountsSnapshot(
            content: ContentState(working: 0, rows: [], more: 0, updatedAt: 1), writtenAt: 1, isTrustworthy: false)
        #expect(empty.summary == "Unknown")
    }

    @Test("A host down beside a working one: the snapshot is not trusted and its count says 'at least', never the whole fleet")
    func hostDownCountIsALowerBound() throws {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [
            .fixture("a", host: HostID("mini")), .fixture("b", host: HostID("mbp"), displayState: .unknown),
        ])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let snapshot = FleetCountsSnapshot.make(engine: try #require(harness.phone.app), now: harness.now)
        #expect(!snapshot.isTrustworthy)
        #expect(snapshot.summary == "At least 1 active · 1 working · 0 needs you")
    }
}

@Suite struct DiagnosticsReportTests {
    @Test("Diagnostics list the tokens the server accepted, shortened, the mode and the card's time")
    func listsTokensAndMode() throws {
        let (harness, _) = try PhoneHarness.withAppCard(["a"])
        harness.run(for: 5)
        let engine = try #require(harness.phone.app)
        let report = DiagnosticsReport.make(
            engine: engine, cards: harness.host.fleetActivities, connection: .live(since: 1), lastNotificationAt: nil)
        #expect(report.deviceID == PhoneHarness.deviceID.rawValue)
        #expect(report.mode == "Token")
        #expect(report.liveCards == 1)
        let survivor = try #require(harness.host.fleetActivities.survivor)
        #expect(report.cardUpdatedAt == survivor.content.updatedAt)
        #expect(!report.tokens.isEmpty)
        for line in report.tokens {
            #expect(line.token.hasSuffix("…"))
            #expect(line.token.count < 20)
            #expect(line.server == "home")
        }
        #expect(Set(report.tokens.map(\.kind)).isSubset(of: ["Push-to-start", "Card update"]))
    }
}
