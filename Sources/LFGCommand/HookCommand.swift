import Foundation
import HTTPClient
import HookAdapter

/// `lfg hook`: the Claude Code hook adapter. Reads one hook event on stdin and reports its session
/// to the control plane.
///
/// It must never slow or break the agent: it always exits 0, prints nothing on stdout (Claude Code
/// would read it as a decision), and returns within ``HookRunner/timeBudget`` (or `LFG_HOOK_BUDGET_MS`),
/// counted from the process's start, even when the server is down or hangs or a hundred hooks run at
/// once. It records the event first in `$LFG_HOME/hook-inbox/`; what it cannot deliver in time waits
/// there for the next call.
public struct HookCommand: Command {
    public static let name = "hook"
    public static let summary = "report one Claude Code hook event (stdin) to the control plane"
    public static let usage = """
        Usage: lfg hook [--agent claude|codex] < event.json

        Claude Code (or Codex, with --agent codex) runs this for every hook event (see `lfg hooks install`). Reports go to $LFG_URL
        (default http://127.0.0.1:8766) with the token from LFG_AUTH_TOKEN or $LFG_HOME/auth-token;
        each event is recorded in $LFG_HOME first, and what is not delivered in time is sent in order
        later. Always exits 0.
        """

    /// The `--agent` value, read leniently: a hook must never fail on its arguments.
    let agentName: String?
    /// `--deliver-session KEY` (from `lfg-hook`, which recorded the event and heard no host): deliver
    /// that session; nothing is read on stdin.
    let recordedSession: String?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        // A hand-edited settings file might add anything: take `--agent NAME`, ignore the rest, never fail.
        agentName = (try? arguments.value("--agent")) ?? nil
        recordedSession = (try? arguments.value("--deliver-session")) ?? nil
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let spent = context.processAge()
        let configuration = HookConfiguration.resolve(environment: context.environment, hostName: Self.machineName()) { path in
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
        let deadline = HookDeadline(seconds: configuration.timeBudget, spent: spent)
        guard let agent = agentName.map(AgentAdapters.named) ?? AgentAdapters.default else {
            context.writeError("lfg hook: --agent \(agentName ?? ""): unknown agent (known: \(AgentAdapters.names)); the event was not recorded\n")
            return 0
        }
        var runner = HookRunner(
            files: HookFiles(home: URL(fileURLWithPath: configuration.home)), host: configuration.host,
            delivery: HookCommand.delivery(for: configuration), requestTimeout: configuration.requestTimeout,
            tokenFingerprint: TokenFingerprint.of(configuration.token), agent: agent, wallClock: { Date().timeIntervalSince1970 })
        runner.agentProcess = { AgentProcess.agent() }
        let doorbell = HostDoorbell(home: configuration.home)
        runner.ringHost = { doorbell.ring(sessionKey: $0) }
        let answering = PhoneAnswering(configuration, client: HTTPClient())
        var asked: (PhoneQuestion, AskedQuestion)?
        let summary: HookRunner.Summary
        if let recordedSession {
            summary = await runner.deliverRecorded(recordedSession, deadline: deadline)
        } else {
            summary = await runner.handle(String(decoding: context.readInput(), as: UTF8.self), deadline: deadline) {
                // Only an agent whose decision format LFG speaks waits for the phone.
                if agent.answersFromPhone { asked = answering.ask(&$0) }
            }
        }
        // Stderr of a hook that exits 0 only reaches Claude Code's debug log.
        for problem in [summary.problem, summary.agentRecordProblem].compactMap({ $0 }) { context.writeError("lfg hook: \(problem)\n") }
        for problem in configuration.answeringProblems { context.writeError("lfg hook: \(problem)\n") }
        for result in [summary.drain, summary.helped] {
            for failure in result.markerFailures { context.writeError("lfg hook: could not update a delivery marker in LFG_HOME: \(failure)\n") }
            guard let reason = result.stoppedBecause, reason != .anotherProcessDelivers else { continue }
            context.writeError("lfg hook: \(Self.explain(reason, pending: result.remaining, configuration))\n")
        }
        // After the report left: the only stdout this command ever writes is Claude Code's decision.
        if let asked, let decision = await answering.decision(for: asked) { context.write(decision.prettyPrinted() + "\n") }
        return 0
    }

    /// One line about a delivery that stopped early; a refused token is named by its first characters
    /// and where it came from.
    static func explain(_ reason: DeliveryStop, pending: Int, _ configuration: HookConfiguration) -> String {
        let kept = "\(pending) report(s) kept"
        guard reason == .unauthorized else { return "\(kept) (\(reason))" }
        return "\(configuration.url) refused \(configuration.tokenDescription) (HTTP 401); \(kept), "
            + "not retried until the token changes"
    }

    /// This machine's host name (``HookSettings/machineName()``).
    static func machineName() -> String? { HookSettings.machineName() }

    /// The live delivery to the control plane at `configuration.url`.
    static func delivery(for configuration: HookConfiguration) -> any ReportDelivery {
        HTTPReportDelivery(client: HTTPClient(), baseURL: configuration.url, token: configuration.token)
    }
}
