import AsyncTesting
import ControlPlane
import FleetCore
import Foundation
import Testing

/// `LFG-Report-Seq` across instances: one session's numbered reports keep their order whichever instance
/// each reaches, exactly as on one instance.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct CrossInstanceReportSeqTests {
    /// One report: which instance it reaches (on three), its number, its step.
    typealias Report = (instance: Int, seq: Int?, step: String)

    /// Numbers 1...9 round-robin, late resends to every instance, an unnumbered report, a hook starting over.
    static let script: [Report] = (1...9).map { (instance: $0 % 3, seq: $0, step: "r\($0)") }
        + (0..<3).map { (instance: $0, seq: 5, step: "late five") }
        + [(0, 2, "late two"), (1, nil, "plain"), (2, 1, "restarted"), (0, 2, "next"), (1, 2, "next again"), (2, 3, "three")]

    static func put(_ report: Report, _ call: (String, [String: String]) async -> ServiceHarness.Reply) async -> String {
        let headers = report.seq.map { [ReportSequence.header: String($0)] } ?? [:]
        let reply = await call(#"{"title":"T","busy":true,"step":"\#(report.step)"}"#, headers)
        #expect(reply.status == 200, "\(report): \(reply.text)")
        return reply.json["step"] as? String ?? "status \(reply.status)"
    }

    @Test("Numbered reports spread over three instances are taken and refused exactly as one instance takes and refuses them", .timeLimit(.minutes(1)))
    func sameAnswersAsOneInstance() async throws {
        let single = try await ServiceHarness()
        var expected: [String] = []
        for report in Self.script {
            expected.append(await Self.put(report) { await single.call("PUT", "/api/sessions/s1", $0, headers: $1) })
        }
        // The late resends answer the session as it stands, and change nothing.
        #expect(expected[9...12] == ["r9", "r9", "r9", "r9"])
        try await SharedServices.with(instances: 3) { (world: SharedServices) async throws in
            var answers: [String] = []
            for report in Self.script {
                answers.append(await Self.put(report) { await world.call(report.instance, "PUT", "/api/sessions/s1", $0, headers: $1) })
            }
            #expect(answers == expected)
            #expect(try await world.reader().load().sessions["s1"]?.step == "three")
        }
    }

    @Test("Reports sent at once to three instances in scrambled order: the highest number is what every instance ends up with", .timeLimit(.minutes(1)))
    func concurrentReportsKeepTheHighest() async throws {
        try await SharedServices.with(instances: 3) { (world: SharedServices) async throws in
            // (1 would be a hook starting over, taken whenever it arrives.)
            let numbers = Array(2...25).shuffled()
            await withTaskGroup(of: Void.self) { group in
                for (index, seq) in numbers.enumerated() {
                    group.addTask {
                        let report: Report = (index % 3, seq, "r\(seq)")
                        _ = await Self.put(report) { await world.call(report.instance, "PUT", "/api/sessions/s1", $0, headers: $1) }
                    }
                }
            }
            #expect(try await world.reader().load().sessions["s1"]?.step == "r25")
            for index in 0..<3 {
                try await bounded("instance \(index) listing r25") {
                    while await world.call(index, "GET", "/api/sessions").text.contains(#""step":"r25""#) == false {
                        await Task.yield()
                    }
                }
            }
        }
    }
}
