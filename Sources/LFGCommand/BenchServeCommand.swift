import ControlPlane
import FleetCore
import Foundation
import HTTPClient
import HTTPServer
import StoreSQLite
import Synchronization
import HTTPTypes

/// `lfg bench serve`: report-to-push latency on loopback, and the watcher's cost per tick as the fleet grows.
public struct BenchServeCommand: Command {
    public static let name = "bench serve"
    public static let summary = "measure report-to-push latency and the watcher's cost per tick"
    public static let usage = """
        Usage: lfg bench serve [--reports N] [--devices N] [--sessions N]

        (a) Sends N (default 300) session reports one at a time over loopback HTTP to a full control plane
            (SQLite store in a temporary folder, watcher, recording push gateway) and prints the time from
            sending each report to its push leaving: p50 and p99.
        (b) Ticks the watcher in memory over DEVICES (default 10000) devices and SESSIONS (default 50000)
            sessions, and over smaller fleets, and prints the cost of a cold, an unchanged and a changed tick.
        Prints human-readable lines, then one JSON object.
        """

    let reports: Int
    let devices: Int
    let sessions: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        reports = try arguments.integer("--reports", in: 10...100_000) ?? 300
        devices = try arguments.integer("--devices", in: 1...1_000_000) ?? 10_000
        sessions = try arguments.integer("--sessions", in: 1...1_000_000) ?? 50_000
    }

    struct Latency: Encodable {
        var reports: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let latency = try await Self.latency(reports: reports)
        context.write(String(
            format: "(a) report -> push leaving, loopback HTTP + SQLite + watcher: n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms\n",
            latency.reports, latency.p50Milliseconds, latency.p99Milliseconds, latency.maxMilliseconds))
        var sizes: [(Int, Int)] = [(devices / 10, sessions / 10), (devices / 10, sessions), (devices, sessions / 10), (devices, sessions)]
        sizes = sizes.filter { $0.0 > 0 && $0.1 > 0 }
        var ticks: [BenchServeFleet.Figures] = []
        context.write("(b) watcher tick cost (in memory):\n")
        for (deviceCount, sessionCount) in sizes {
            let figures = BenchServeFleet(devices: deviceCount, sessions: sessionCount).measure()
            ticks.append(figures)
            context.write(String(
                format: "    %6d devices %6d sessions: cold %8.2f ms, unchanged %7.3f ms (%.3f%% of a core at 2 s), one change %8.2f ms (%d updates)\n",
                figures.devices, figures.sessions, figures.coldTickMilliseconds, figures.unchangedTickMilliseconds,
                figures.unchangedCoreShareAt2s * 100, figures.changedTickMilliseconds, figures.updatesDecidedOnChange))
            context.write(String(
                format: "        a change only the %d probe devices see %7.3f ms (%d updates); a change no card shows %7.3f ms\n",
                BenchServeFleet.probeDevices, figures.probeChangedTickMilliseconds, figures.updatesDecidedOnProbeChange,
                figures.unshownChangeTickMilliseconds))
        }
        struct Output: Encodable {
            var latency: Latency
            var ticks: [BenchServeFleet.Figures]
        }
        context.write(String(decoding: try WireJSON.encode(Output(latency: latency, ticks: ticks)), as: UTF8.self) + "\n")
        return 0
    }

    /// Runs a whole control plane on loopback and times each report until its push leaves.
    static func latency(reports: Int) async throws -> Latency {
        let home = NSTemporaryDirectory() + "lfg-bench-" + UUID().uuidString
        try HomeFiles.prepare(home)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let gateway = BenchPushGateway()
        var departures = gateway.departures.makeAsyncIterator()
        let service = ControlPlaneService(.init(
            store: try SQLiteStore(path: home + "/" + HomeFiles.database), gateway: gateway,
            decisionLog: try DecisionLogFile(path: home + "/" + HomeFiles.decisionLog)))
        try await service.start()
        let token = "bench-token"
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0),
            handler: APIRouter(service: service, authenticator: Authenticator(token: token, loginCode: nil)))
        let port = try server.start()
        let client = HTTPClient()
        func send(_ method: String, _ path: String, _ body: String) async throws {
            let response = try await client.send(HTTPClientRequest(
                method: method, url: "http://127.0.0.1:\(port)\(path)",
                headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: Data(body.utf8)))
            guard response.status == 200 else { throw CommandFailure("bench: \(path) answered \(response.status)") }
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            group.addTask { await service.run() }
            defer { group.cancelAll() }
            try await send("POST", "/api/push/live-activity/update-token", #"{"token":"\#(String(repeating: "ab", count: 32))","env":"sandbox"}"#)
            var samples: [Double] = []
            for index in 0...reports {
                let sent = ContinuousClock.now
                // Each report is a new session asking for the person: a needs-you change, which the
                // priority budget never delays (a routine step would wait out the 5 s coalescing window).
                try await send(
                    "PUT", "/api/sessions/bench-\(index)",
                    #"{"title":"step \#(index)","prompt":{"kind":"permission","text":"Run it?"}}"#)
                // One report, one push: the next departure is this report's.
                guard let leftAt = await departures.next() else {
                    throw CommandFailure("bench: the server stopped before the push for report \(index) left")
                }
                if index > 0 { samples.append(BenchServeFleet.milliseconds(leftAt - sent)) }  // the first warms up
            }
            samples.sort()
            return Latency(
                reports: samples.count, p50Milliseconds: samples[samples.count / 2],
                p99Milliseconds: samples[min(samples.count - 1, samples.count * 99 / 100)],
                maxMilliseconds: samples.last ?? 0)
        }
    }
}
