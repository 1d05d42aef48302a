import ControlPlane
import FleetCore
import Foundation
import Testing

/// Issue 15's host-sleep test: a host's heartbeats stop (the laptop sleeps), its sessions read `unknown`
/// and the card is neither ended nor zeroed; the heartbeats return and the sessions come back with their
/// `since` kept. Through the API with a manual clock (the process-level run is HostProcessTests).
@Suite("Host sleep: heartbeats stop and return")
struct HostSleepTests {
    static let ttl = 60.0

    private func beat(_ harness: ServiceHarness) async {
        #expect(await harness.call("PUT", "/api/hosts/mbp", #"{"ttlSeconds":\#(Int(Self.ttl))}"#).status == 200)
    }

    /// A service whose host `mbp` heartbeats, with one working session `s1` on it and a card started for it;
    /// returns the harness and when the session started.
    private func cardWithWorkingSession() async throws -> (ServiceHarness, UnixTime) {
        let harness = try await ServiceHarness()
        await beat(harness)
        await harness.call("POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox"}"#)
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true,"host":"mbp"}"#)
        let started = harness.time.now
        await harness.service.tick()
        return (harness, started)
    }

    private func card(_ harness: ServiceHarness) async throws -> [String: Any] {
        let devices = await harness.call("GET", "/api/push/live-activity/state").json["devices"] as? [[String: Any]]
        return try #require(devices?.first?["card"] as? [String: Any])
    }

    private func firstRow(_ card: [String: Any]) throws -> [String: Any] {
        let content = try #require(card["contentState"] as? [String: Any])
        return try #require((content["rows"] as? [[String: Any]])?.first)
    }

    @Test("Heartbeats stop: unknown, the card untouched (no end, no zero); they return: working again, since kept")
    func sleepAndWake() async throws {
        let (harness, started) = try await cardWithWorkingSession()
        #expect(harness.gateway.delivered.map(\.action) == [.start])
        let before = try await card(harness)
        #expect(try firstRow(before)["since"] as? Double == started)

        // The laptop sleeps: no heartbeat past the TTL.
        harness.time.advance(Self.ttl + 1)
        #expect(await harness.service.sessions().map(\.displayState) == [.unknown])
        for _ in 0..<10 {
            harness.time.advance(10)
            await harness.service.tick()
        }
        #expect(harness.gateway.delivered.map(\.action) == [.start], "no end, no zeroed update while the host sleeps")
        let asleep = try await card(harness)
        #expect((asleep["contentState"] as? [String: Any])?["working"] as? Int == 1)

        // It wakes: the next heartbeat brings the session back, its timer unbroken.
        await beat(harness)
        #expect(await harness.service.sessions().map(\.displayState) == [.working])
        await harness.service.tick()
        #expect(harness.gateway.delivered.map(\.action) == [.start], "the card already says it: nothing to push")
        #expect(try firstRow(await card(harness))["since"] as? Double == started)
    }

    @Test("A sleep longer than the silence rule comes back as no news (not working) until the session reports")
    func longSleep() async throws {
        let (harness, started) = try await cardWithWorkingSession()
        harness.time.advance(SilenceRule.defaultSeconds + 60)
        #expect(await harness.service.sessions().map(\.displayState) == [.unknown], "a down host wins over no news")
        await beat(harness)
        #expect(await harness.service.sessions().map(\.displayState) == [.noNews])
        await harness.call("PATCH", "/api/sessions/s1", #"{"step":"Running tests"}"#, headers: ["Content-Type": "application/merge-patch+json"])
        #expect(await harness.service.sessions().map(\.displayState) == [.working])
        await harness.service.tick()
        #expect(try firstRow(await card(harness))["since"] as? Double == started)
        #expect(!harness.gateway.delivered.contains { $0.action == .end })
    }

    @Test("While one host sleeps another's change rewrites the card without it; when it wakes its row returns with its since")
    func sinceSurvivesACardRewrittenMeanwhile() async throws {
        let (harness, started) = try await cardWithWorkingSession()
        // The card runs and the phone handed over its update token, so changes are pushed.
        await harness.call("POST", "/api/push/live-activity/update-token", #"{"token":"\#(hexB)","env":"sandbox"}"#)
        #expect(await harness.call("PUT", "/api/hosts/mini", #"{"ttlSeconds":3600}"#).status == 200)
        harness.time.advance(5)
        await harness.call("PUT", "/api/sessions/s2", #"{"title":"Lint","busy":true,"host":"mini"}"#)
        await harness.service.tick()
        let pushesBefore = harness.gateway.delivered.count

        // mbp sleeps; meanwhile s2 on mini waits for its person: the card is rewritten without s1.
        harness.time.advance(Self.ttl + 1)
        await harness.call("PUT", "/api/sessions/s2", #"{"title":"Lint","busy":true,"host":"mini","prompt":{"kind":"question","text":"Which linter?"}}"#)
        await harness.service.tick()
        let asleep = try #require(harness.gateway.delivered.last)
        #expect(harness.gateway.delivered.count > pushesBefore && asleep.action == .update)
        #expect(asleep.contentState.rows.map(\.sid) == ["s2"], "a session whose host is down is no row")
        #expect(await harness.service.sessions().first { $0.sid == "s1" }?.displayState == .unknown)

        // mbp wakes: s1's row comes back with the since it had before the sleep, on the server and in the push.
        harness.time.advance(30)
        await beat(harness)
        await harness.service.tick()
        let awake = try #require(harness.gateway.delivered.last)
        #expect(awake.action == .update)
        #expect(awake.contentState.rows.first { $0.sid == "s1" }?.since == started)
        let rows = try #require((try await card(harness)["contentState"] as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(rows.first { $0["sid"] as? String == "s1" }?["since"] as? Double == started)
        #expect(!harness.gateway.delivered.contains { $0.action == .end })
    }
}
