import FleetApp
import FleetCore
import Foundation
import Testing

/// The app-side guards beyond the lettered situations, each shown failing without its guard.
@Suite struct GuardTests {
    func registrationsWithTwoServers(guards: GuardSet) throws -> PhoneHarness {
        let harness = PhoneHarness(guards: guards, servers: [PhoneHarness.home, PhoneHarness.lab])
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        try #require(harness.liveCards.count == 1)
        harness.change { $0.setBusy(false, for: "a") }
        return harness
    }

    @Test("Tokens and /ended go to the default server only, never to every configured one")
    func defaultHostOnly() throws {
        let harness = try registrationsWithTwoServers(guards: .all)
        #expect(harness.registrations.map(\.registration.kind) == [.pushToStart, .update])
        #expect(Set(harness.registrations.map(\.server)) == ["home"])
        #expect(harness.endedReports.map(\.server) == ["home"])
        // The other server is only asked for its sessions (the app shows both servers' sessions merged).
        #expect(harness.calls.filter { $0.server == "lab" }.allSatisfy {
            if case .fetchSessions = $0.call { true } else { false }
        })
    }

    @Test("Without default-host-only every server gets the tokens, so each would push-start its own card")
    func everyHostWithoutGuard() throws {
        let harness = try registrationsWithTwoServers(guards: .without(.defaultHostOnly))
        #expect(Set(harness.registrations.filter { $0.registration.kind == .update }.map(\.server)) == ["home", "lab"])
        #expect(Set(harness.registrations.filter { $0.registration.kind == .pushToStart }.map(\.server)) == ["home", "lab"])
    }

    func cardAfterQuietMinutes(guards: GuardSet) throws -> PhoneHarness {
        // Three quiet minutes pass the card's stale date; its refresh (guard `stale-date`) is another rule.
        let harness = PhoneHarness(guards: GuardSet(disabled: guards.disabled.union([.staleDate])))
        harness.listing = SessionsReply(sessions: [.fixture("a")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        try #require(harness.liveCards.count == 1)
        harness.clock.advance(by: 120)
        harness.phone.foreground()
        harness.clock.advance(by: 60)
        harness.phone.app?.refresh()
        harness.run(for: 1)
        return harness
    }

    @Test("A sync whose only difference is the time pushes nothing: the labels count up on their own")
    func noOpUpdatesSkipped() throws {
        let harness = try cardAfterQuietMinutes(guards: .all)
        #expect(harness.updateCommands.isEmpty)

        harness.change { $0.upsert(SessionReport(title: "Renamed", busy: true), for: "a") }
        #expect(harness.updateCommands.map(\.1.rows.first?.title) == ["Renamed"])
    }

    @Test("Without updatedAt excluded from the comparison, every sync is an update")
    func everySyncUpdatesWithoutGuard() throws {
        let harness = try cardAfterQuietMinutes(guards: .without(.updatedAtExcluded))
        #expect(harness.updateCommands.count == 2)  // the foregrounding and the refresh a minute later
    }

    @Test("Hiding a folder is an observed change: its sessions leave the card, and the server is told")
    func hiddenDirsChangeSyncs() throws {
        let harness = PhoneHarness()
        harness.listing = SessionsReply(sessions: [.fixture("a", cwd: "/work/secret/app")])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let card = try #require(harness.liveCards.first)

        harness.change { $0.hiddenDirs = ["/work/secret"] }

        #expect(harness.endCommands == [card.id])
        let devicePuts = harness.calls.compactMap { sent -> DeviceRegistration? in
            if case .putDevice(_, let registration) = sent.call { registration } else { nil }
        }
        #expect(devicePuts.map(\.hiddenDirs) == [[], ["/work/secret"]])
    }

    @Test("The tombstone sweep ends every retired per-session card once, at launch")
    func tombstoneSweep() throws {
        let harness = PhoneHarness()
        let retired = (0..<3).map { _ in harness.host.addRetiredActivity() }
        harness.phone.launch(inForeground: true)
        #expect(harness.host.retiredActivityIDs.isEmpty)
        #expect(harness.host.commands == retired.map { .endRetired($0) })

        harness.phone.foreground()
        harness.run(for: 60)
        #expect(harness.host.commands.filter { if case .endRetired = $0 { true } else { false } }.count == 3)
    }

    @Test("A content state an older build wrote (missing keys) decodes with defaults")
    func oldBuildContentStateDecodes() throws {
        let old = #"{"working": 2, "rows": [{"sid": "a", "title": "Fix it", "since": 1764400000}], "updatedAt": 1}"#
        let state = try JSONDecoder().decode(ContentState.self, from: Data(old.utf8))
        #expect(state == ContentState(
            working: 2, needsInput: 0, rows: [Row(sid: "a", title: "Fix it", state: .working, since: 1_764_400_000)],
            more: 0, updatedAt: 1))
    }

    @Test("The retired per-session type decodes whatever an old build stored, and an empty object")
    func retiredTypeDecodesLeniently() throws {
        let decoder = JSONDecoder()
        let oldState = #"{"sessionId": "a", "title": "x", "state": "working", "since": 1, "unread": 3}"#
        _ = try decoder.decode(LFGSessionAttributes.ContentState.self, from: Data(oldState.utf8))
        _ = try decoder.decode(LFGSessionAttributes.ContentState.self, from: Data("{}".utf8))
        _ = try decoder.decode(LFGSessionAttributes.self, from: Data(#"{"sessionId": "a", "host": "mac"}"#.utf8))
        let encoded = try JSONEncoder().encode(LFGSessionAttributes.ContentState())
        #expect(String(decoding: encoded, as: UTF8.self) == "{}")
    }
}
