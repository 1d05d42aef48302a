import Foundation
import HTTPClient
import HookAdapter

/// `lfg hooks drain`: delivers every hook event and report still pending in `$LFG_HOME`, now.
///
/// Hooks deliver their own session as they run and `lfg serve` takes what is pending when it starts;
/// this is for everything in between (after a burst, after the server was away, in scripts).
public struct HooksDrainCommand: Command {
    public static let name = "hooks drain"
    public static let summary = "deliver every hook report still pending in $LFG_HOME"
    public static let usage = """
        Usage: lfg hooks drain [--timeout SECONDS]

        Delivers, in order per session, every event `lfg hook` recorded and every report it could not
        deliver yet, to $LFG_URL with the hook's token. Waits for sessions another hook is delivering.
          --timeout SECONDS   give up after this long (default 30)
        Exits 1 when something is still pending afterwards.
        """

    let timeout: Double

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        let text = try arguments.value("--timeout")
        guard let seconds = Double(text ?? "30"), seconds > 0 else {
            throw UsageError("--timeout takes a number of seconds above 0, not '\(text ?? "")'")
        }
        timeout = seconds
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let configuration = HookConfiguration.resolve(environment: context.environment) { path in
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }
        let result = await SpoolDrainer.drain(
            HookFiles(home: URL(fileURLWithPath: configuration.home)), using: HookCommand.delivery(for: configuration),
            deadline: HookDeadline(seconds: timeout))
        context.write("delivered \(result.delivered), refused for good \(result.rejected), still pending \(result.remaining)\n")
        if let reason = result.stoppedBecause, result.remaining > 0 {
            context.writeError("lfg hooks drain: \(HookCommand.explain(reason, pending: result.remaining, configuration))\n")
            return 1
        }
        return 0
    }
}
