import ControlPlane
import FleetCore
import Foundation
import HTTPClient
import HTTPServer
import StoreSQLite
import HTTPTypes

/// `lfg bench answers`: how fast a phone's answer reaches a waiting `lfg hook`, and what a thousand
/// waiting hooks cost the server.
public struct BenchAnswersCommand: Command {
    public static let name = "bench answers"
    public static let summary = "measure answer -> hook decision latency and the cost of waiting hooks"
    public static let usage = """
        Usage: lfg bench answers [--questions N] [--parallel P] [--waiters W] [--database-url URL]

        Runs a control plane on loopback in this process (SQLite store in a temporary folder) and:
        (a) N times (default 1000), P at a time (default 8): starts a real `lfg hook` process on a recorded
            PermissionRequest (LFG_ANSWER_POLICY=always), waits until it long-polls, then answers through
            POST /api/questions/{id}/answer and times the POST until the hook prints its decision: p50, p99.
            The reference, in the same run: the POST's own round trip.
        (b) W (default 1000) long polls waiting at once (held by a child `lfg bench answers --hold`
            process): this process's resident memory and threads before and while they wait.
        --database-url URL: two instances in this process share that PostgreSQL database (a fresh schema)
            instead of one on SQLite, and (a) runs a second time with each answer POSTed to the other
            instance than the one the hook waits on for every other question (answer -> hook across
            instances, beside the same instance's figure in the same minutes).
        Prints human-readable lines, then one JSON object.
        """

    let questions: Int
    let parallel: Int
    let waiters: Int
    /// `--hold N --url U --token T`: the child that holds N long polls on questions `hold-0`... open.
    let hold: Int?
    let url: String?
    let token: String?
    let databaseURL: String?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        questions = try arguments.integer("--questions", in: 10...100_000) ?? 1000
        parallel = try arguments.integer("--parallel", in: 1...64) ?? 8
        waiters = try arguments.integer("--waiters", in: 1...10_000) ?? 1000
        hold = try arguments.integer("--hold", in: 1...10_000)
        url = try arguments.value("--url")
        token = try arguments.value("--token")
        databaseURL = try arguments.value("--database-url")
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        if let hold, let url, let token {
            await AnswerBench.holdWaits(count: hold, url: url, token: token)
            return 0
        }
        let executable = HookSettingsLocation.currentExecutable()
        let bench: AnswerBench
        if let databaseURL {
            bench = try await AnswerBench.startShared(executable: executable, databaseURL: databaseURL)
        } else {
            bench = try await AnswerBench.start(executable: executable)
        }
        let result: AnswerBench.Figures
        let across: AnswerBench.AcrossInstances?
        do {
            across = try await bench.measureAcrossInstances(questions: questions, parallel: parallel) { context.write($0) }
            result = try await bench.measure(questions: questions, parallel: parallel, waiters: waiters) { context.write($0) }
        } catch {
            await bench.stop()
            throw error
        }
        await bench.stop()
        context.write(String(
            format: "(a) answer POST -> hook prints its decision: n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms"
                + " (reference, the POST round trip: p50=%.2f ms p99=%.2f ms; p99 ratio %.2f)\n",
            result.questions, result.p50Milliseconds, result.p99Milliseconds, result.maxMilliseconds,
            result.postP50Milliseconds, result.postP99Milliseconds, result.p99Ratio))
        context.write(String(
            format: "    one waiting lfg hook process: %.1f MiB resident, %d threads\n",
            result.hookResidentMiB, result.hookThreads))
        context.write(String(
            format: "(b) %d long polls waiting: server %.1f -> %.1f MiB resident (%.1f KiB per waiter), threads %d -> %d\n",
            result.waiters, result.residentBeforeMiB, result.residentWaitingMiB,
            (result.residentWaitingMiB - result.residentBeforeMiB) * 1024 / Double(result.waiters),
            result.threadsBefore, result.threadsWaiting))
        if let across {
            context.write(String(
                format: "(a') two instances, answers alternating: the hook's own instance p50=%.2f ms p99=%.2f ms;"
                    + " the other instance (across) n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms"
                    + " (POST round trip p50: own %.2f ms, other %.2f ms; other p99 %.2f ms)\n",
                across.sameP50Milliseconds, across.sameP99Milliseconds, across.questions, across.p50Milliseconds,
                across.p99Milliseconds, across.maxMilliseconds, across.samePostP50Milliseconds,
                across.postP50Milliseconds, across.postP99Milliseconds))
        }
        var output = result
        output.acrossInstances = across
        output.store = databaseURL == nil ? "sqlite" : "postgresql"
        context.write(String(decoding: try WireJSON.encode(output), as: UTF8.self) + "\n")
        return 0
    }
}
