import ControlPlane
import FleetCore
import Foundation
import Testing

@Suite("LFG-Report-Seq: a late resend never overwrites a newer report")
struct ReportSequenceTests {
    static func put(_ harness: ServiceHarness, _ step: String, seq: Int?) async -> String? {
        let headers = seq.map { [ReportSequence.header: String($0)] } ?? [:]
        let reply = await harness.call("PUT", "/api/sessions/s1", #"{"title":"T","busy":true,"step":"\#(step)"}"#, headers: headers)
        #expect(reply.status == 200)
        return reply.json["step"] as? String
    }

    static func step(_ harness: ServiceHarness) async -> String? {
        let sessions = await harness.call("GET", "/api/sessions").json["sessions"] as? [[String: Any]]
        return sessions?.first?["step"] as? String
    }

    @Test("A report numbered below the last taken changes nothing and answers the session as it is")
    func staleIgnored() async throws {
        let harness = try await ServiceHarness()
        #expect(await Self.put(harness, "two", seq: 2) == "two")
        #expect(await Self.put(harness, "three", seq: 3) == "three")
        #expect(await Self.put(harness, "two again", seq: 2) == "three")
        #expect(await Self.step(harness) == "three")
        // Unnumbered reports (other reporters) and a hook that starts counting again are always taken.
        #expect(await Self.put(harness, "plain", seq: nil) == "plain")
        #expect(await Self.put(harness, "restarted", seq: 1) == "restarted")
        #expect(await Self.put(harness, "next", seq: 2) == "next")
    }

    @Test("Deleting a session forgets its numbers")
    func deleteForgets() async throws {
        let harness = try await ServiceHarness()
        _ = await Self.put(harness, "nine", seq: 9)
        #expect(await harness.call("DELETE", "/api/sessions/s1").status == 200)
        #expect(await Self.put(harness, "five", seq: 5) == "five")
    }

    @Test("The rule: stale means at or below the last taken, and 1 is never stale", arguments: [
        (5, nil, false), (5, 4, false), (5, 5, true), (4, 5, true), (1, 5, false),
    ] as [(Int, Int?, Bool)])
    func rule(seq: Int, last: Int?, stale: Bool) {
        #expect(ReportSequence.isStale(seq, after: last) == stale)
    }
}
