import ControlPlane
import FleetCore
import Foundation
import Testing

/// The server's half of guard `server-since`: `GET /api/sessions` carries each active session's sticky
/// baseline from the watcher, so an app that slept through a change dates the row as the server does.
@Suite("Session listing: since")
struct SessionListingSinceTests {
    @Test("GET /api/sessions lists an active session's since from the watcher's last reduction, and none for an idle one")
    func listingCarriesTheWatchersBaseline() async throws {
        let harness = try await ServiceHarness()
        let began = harness.time.now
        #expect(await harness.call("PUT", "/api/sessions/s1", #"{"title":"build","busy":true}"#).status == 200)
        #expect(await harness.call("PUT", "/api/sessions/s2", #"{"title":"done","busy":false}"#).status == 200)
        await harness.service.tick()
        harness.time.advance(30)
        #expect(await harness.call(
            "PATCH", "/api/sessions/s1", #"{"prompt":{"kind":"question","text":"Proceed?"}}"#,
            headers: ["Content-Type": "application/merge-patch+json"]).status == 200)
        await harness.service.tick()

        let listed = await harness.service.sessions()
        #expect(listed.map(\.since) == [SinceEntry(state: .needsInput, since: began + 30), nil])
        let body = await harness.call("GET", "/api/sessions").json
        let sessions = try #require(body["sessions"] as? [[String: Any]])
        let since = try #require(sessions.first?["since"] as? [String: Any])
        #expect(since["state"] as? String == "needsInput")
        #expect(since["since"] as? Double == began + 30)
        #expect(sessions.last?["since"] == nil)
    }
}
