import Foundation
import HTTPClient
import HookAdapter

/// `lfg hook`: the Claude Code hook adapter. Reads one hook event on stdin and reports its session
/// to the control plane.
///
/// It must never slow or break the agent: it always exits 0, prints nothing on stdout (Claude Code
/// would read it as a decision), and returns within ``HookRunner/timeBudget`` (or `LFG_HOOK_BUDGET_MS`) even when the server is
/// down or hangs. What it cannot deliver waits in `$LFG_HOME/hook-spool.jsonl` for the next call.
public struct HookCommand: Command {
    public static let name = "hook"
    public static let summary = "report one Claude Code hook event (stdin) to the control plane"
    public static let usage = """
        Usage: lfg hook < event.json

        Claude Code runs this for every hook event (see `lfg hooks install`). Reports go to $LFG_URL
        (default http://127.0.0.1:8766) with the token from LFG_AUTH_TOKEN or $LFG_HOME/auth-token;
        undeliverable reports are spooled in $LFG_HOME and sent in order later. Always exits 0.
        """

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        // Claude Code passes nothing, but a hand-edited settings file might: ignore it, never fail.
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let configuration = HookConfiguration.resolve(environment: context.environment) { path in
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
        let deadline = HookDeadline(seconds: configuration.timeBudget)
        let runner = HookRunner(
            files: HookFiles(home: URL(fileURLWithPath: configuration.home)), host: configuration.host,
            delivery: HookCommand.delivery(for: configuration), requestTimeout: configuration.requestTimeout,
            wallClock: { Date().timeIntervalSince1970 })
        let summary = await runner.handle(String(decoding: context.readInput(), as: UTF8.self), deadline: deadline)
        // Stderr of a hook that exits 0 only reaches Claude Code's debug log.
        if let problem = summary.problem { context.writeError("lfg hook: \(problem)\n") }
        if summary.drain.remaining > 0, let reason = summary.drain.stoppedBecause {
            context.writeError("lfg hook: \(summary.drain.remaining) report(s) spooled (\(reason))\n")
        }
        return 0
    }

    /// The live delivery to the control plane at `configuration.url`.
    static func delivery(for configuration: HookConfiguration) -> any ReportDelivery {
        HTTPReportDelivery(client: HTTPClient(), baseURL: configuration.url, token: configuration.token)
    }
}
