import ControlPlane
import FleetCore
import Foundation
import Testing

/// The server's half of the silence rule: it remembers when each session last reported, lists a quiet busy
/// session as `noNews`, and its watcher updates the card (never zeroes or ends it).
@Suite("Silence rule on the server")
struct SilenceRuleServiceTests {
    @Test("no-news: a session silent past the threshold lists as noNews with heardAt; a report brings it back")
    func listing() async throws {
        let harness = try await ServiceHarness()
        let heard = harness.time.now
        #expect(await harness.call("PUT", "/api/sessions/s1", #"{"title":"build","busy":true}"#).status == 200)
        harness.time.advance(SilenceRule.defaultSeconds - 1)
        var listed = try #require(await harness.service.sessions().first)
        #expect(listed.displayState == .working)
        #expect(listed.heardAt == heard)
        harness.time.advance(1)
        listed = try #require(await harness.service.sessions().first)
        #expect(listed.displayState == .noNews)
        let text = await harness.call("GET", "/api/sessions").text
        #expect(text.contains(#""displayState":"noNews""#))
        #expect(text.contains(#""heardAt":\#(Int(heard))"#))

        #expect(await harness.call("PATCH", "/api/sessions/s1", #"{"step":"still here"}"#, headers: ["Content-Type": "application/merge-patch+json"]).status == 200)
        #expect(try #require(await harness.service.sessions().first).displayState == .working)
    }

    @Test("no-news: the watcher re-reduces when a session turns quiet and pushes a no-news row, not an end")
    func watcher() throws {
        var harness = WatcherHarness.withLiveCard()
        harness.fleet.put("s1", SessionReport(title: "t", busy: true), heardAt: harness.now)
        harness.tickAndDeliver()
        let update = try #require(harness.tick(advancing: SilenceRule.defaultSeconds).batches.first)
        #expect(update.action == .update)
        #expect(update.contentState.working == 1)
        #expect(update.contentState.rows.first?.noNewsSince != nil)
    }

    @Test("Without no-news a silent session stays a confident working row: no push at all")
    func withoutGuard() {
        var harness = WatcherHarness.withLiveCard(guards: .without(.noNews))
        harness.fleet.put("s1", SessionReport(title: "t", busy: true), heardAt: harness.now)
        harness.tickAndDeliver()
        // Only the stale-date refresh of the same content may go out.
        let batches = harness.tick(advancing: SilenceRule.defaultSeconds).batches
        #expect(batches.allSatisfy { $0.action == .update && !$0.contentState.rows.contains(where: \.isNoNews) })
    }

    @Test("LFG_NO_NEWS_AFTER_S sets the threshold; a bad value names the variable")
    func configuration() throws {
        let config = try ServerConfig.load(environment: ["LFG_HOME": "/nonexistent", "LFG_NO_NEWS_AFTER_S": "120"]) { _ in nil }
        #expect(config.cardPolicy.silence.noNewsAfter == 120)
        #expect(try ServerConfig.load(environment: ["LFG_HOME": "/x"]) { _ in nil }.cardPolicy.silence == .standard)
        #expect(throws: ConfigError.self) { try ServerConfig.load(environment: ["LFG_NO_NEWS_AFTER_S": "soon"]) { _ in nil } }
    }
}
