import APNs
import APNsHTTP2
import ES256OpenSSL
import FleetCore
import Foundation
import Synchronization

/// `lfg bench apns`: measure push throughput against an HTTP/2 endpoint
public struct BenchAPNsCommand: Command {
    public static let name = "bench apns"
    public static let summary = "measure push throughput against an HTTP/2 endpoint"
    public static let usage = """
        Usage: lfg bench apns --url URL [--count N] [--concurrency C] [--connections K] [--ca-file F]

        Sends N (default 20000) Live Activity update pushes (~300-byte bodies) to URL (http:// = h2c with
        prior knowledge, https:// = TLS) with at most C (default 100) in flight over a pool of up to K
        connections (default 1), through the provider's own transport, signed with the LFG_APNS_* key when configured, else a throwaway key. Prints one line:
        {"count", "seconds", "pushesPerSecond", "errors", "connections"}. Errors are pushes not accepted.
        """

    let url: String
    let count: Int
    let concurrency: Int
    let caFile: String?
    let connections: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        guard let url = try arguments.value("--url") else { throw UsageError("--url is required (the HTTP/2 endpoint)") }
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw UsageError("--url must start with http:// (h2c) or https:// (TLS), not '\(url)'")
        }
        self.url = url
        count = try arguments.integer("--count", in: 1...10_000_000) ?? 20_000
        concurrency = try arguments.integer("--concurrency", in: 1...10_000) ?? 100
        caFile = try arguments.value("--ca-file")
        connections = try arguments.integer("--connections", in: 1...64) ?? 1
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let signer = try Self.signer(environment: context.environment)
        let endpoint: Endpoint
        do { endpoint = try Endpoint(url: url) } catch { throw CommandFailure(error.message) }
        let sender: HTTP2PushSender
        do {
            sender = try HTTP2PushSender(
                options: .init(endpoints: [.sandbox: endpoint, .production: endpoint],
                               caFile: caFile ?? context.environment["LFG_APNS_CA_FILE"], connectionsPerEndpoint: connections),
                tokens: ProviderTokenCache(keyID: signer.keyID, teamID: signer.teamID, key: signer.key, clock: .system))
        } catch {
            throw CommandFailure(error.message)
        }
        defer { sender.shutdown() }
        let requests = try Self.requests(count: min(count, 1024), bundleID: signer.bundleID)
        let result = await Self.measure(sender: sender, requests: requests, count: count, concurrency: concurrency)
        let line = BenchResult(
            count: count, seconds: result.seconds, pushesPerSecond: Double(count) / result.seconds, errors: result.errors,
            connections: sender.connectionsOpened)
        context.write(line.json + "\n")
        if result.errors == count, let sample = result.firstError {
            context.writeError("lfg bench apns: every push failed; the first: \(sample)\n")
            return 1
        }
        return 0
    }

    /// Sends `count` pushes (cycling through `requests`) with `concurrency` workers; returns time and errors.
    static func measure(sender: any PushSender, requests: [PushRequest], count: Int, concurrency: Int) async
        -> (seconds: Double, errors: Int, firstError: String?)
    {
        let next = Ticket()
        let start = ContinuousClock.now
        let (errors, firstError) = await withTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    var errors = 0
                    var first: String?
                    while true {
                        let index = next.take()
                        guard index < count else { break }
                        let response = await sender.send(requests[index % requests.count])
                        if response.outcome != .accepted {
                            errors += 1
                            if first == nil { first = response.failure?.description ?? "\(response.status) \(response.reason?.rawValue ?? "")" }
                        }
                    }
                    return (errors, first)
                }
            }
            var total = 0
            var first: String?
            for await (errors, sample) in group {
                total += errors
                first = first ?? sample
            }
            return (total, first)
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (seconds, errors, firstError)
    }

    /// Update pushes with a realistic three-row state (~300-byte bodies) to distinct tokens.
    static func requests(count: Int, bundleID: BundleID) throws -> [PushRequest] {
        let state = ContentState(
            working: 2, needsInput: 1,
            rows: [
                Row(sid: "s-1", title: "Fix the flaky build", state: .needsInput, since: 1_764_399_000),
                Row(sid: "s-2", title: "Write the APNs tests", state: .working, since: 1_764_399_100),
                Row(sid: "s-3", title: "Refactor the store", state: .working, since: 1_764_399_200),
            ],
            more: 0, updatedAt: 1_764_400_000)
        return try (0..<count).map { index in
            let hex = String(repeating: String(format: "%08x", index), count: 8)
            return try PushRequest.liveActivity(
                .update(state: state, timestamp: 1_764_400_000), token: DeviceToken(hex: hex), environment: .sandbox,
                bundleID: bundleID)
        }
    }

    struct Signer {
        let key: any SigningKey
        let keyID: String
        let teamID: String
        let bundleID: BundleID
    }

    /// The configured key when LFG_APNS_* is complete, else a throwaway P-256 key made for the run.
    static func signer(environment: [String: String]) throws -> Signer {
        if let configuration = try? APNsConfiguration(environment: environment) {
            let pem = try configuration.loadKey(readFile: APNsProvider.readFile)
            return Signer(key: try OpenSSLSigningKey(pem: pem), keyID: configuration.keyID, teamID: configuration.teamID,
                          bundleID: configuration.bundleID)
        }
        return Signer(key: try OpenSSLSigningKey.generateP256(), keyID: "BENCHKEY01", teamID: "BENCHTEAM1",
                      bundleID: BundleID("dev.lfg.bench"))
    }
}

/// The one line `lfg bench apns` prints, keys in the contract's order.
struct BenchResult: Equatable {
    let count: Int
    let seconds: Double
    let pushesPerSecond: Double
    let errors: Int
    let connections: Int

    var json: String {
        let seconds = (self.seconds * 1000).rounded() / 1000
        let rate = (pushesPerSecond * 10).rounded() / 10
        return #"{"count":\#(count),"seconds":\#(seconds),"pushesPerSecond":\#(rate),"errors":\#(errors),"connections":\#(connections)}"#
    }
}

/// Hands out 0, 1, 2, ... to concurrent workers.
final class Ticket: Sendable {
    private let counter = Atomic<Int>(0)
    func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
