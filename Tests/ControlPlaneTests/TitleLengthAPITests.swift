import ControlPlane
import FleetCore
import Foundation
import Testing

@Suite struct TitleLengthAPITests {
    @Test("A title over 1,000 characters is kept as its first 999 and an ellipsis, as the README documents")
    func longTitleIsCut() async throws {
        let harness = try await ServiceHarness()
        let title = String(repeating: "é", count: 1_500)
        #expect(await harness.call("PUT", "/api/sessions/s1", #"{"title":"\#(title)","busy":true}"#).status == 200)
        let sessions = try #require(await harness.call("GET", "/api/sessions").json["sessions"] as? [[String: Any]])
        let kept = try #require(sessions.first?["title"] as? String)
        #expect(kept.count == SessionReport.maximumTitleLength)
        #expect(kept == String(repeating: "é", count: 999) + "…")
    }

    @Test("A title of 1,000 characters or fewer is kept whole")
    func shortTitleIsKept() async throws {
        let harness = try await ServiceHarness()
        let title = String(repeating: "a", count: 1_000)
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"\#(title)","busy":true}"#)
        let sessions = try #require(await harness.call("GET", "/api/sessions").json["sessions"] as? [[String: Any]])
        #expect(sessions.first?["title"] as? String == title)
    }
}
