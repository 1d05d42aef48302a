import Diagnosis
import Foundation
import HTTPTypes

/// `lfg diagnose`: answers from the decision log why a card went stale.
public struct DiagnoseCommand: Command {
    public static let name = "diagnose"
    public static let summary = "answer from the decision log why a card went stale"
    public static let usage = """
        Usage: lfg diagnose [--log FILE] [--json]

        Reads the decision log (default $LFG_HOME/liveactivity.log, LFG_HOME defaults to ~/.lfg) and prints,
        per device: every start and whether an `adopted` followed within 90 s (adopted: a stale card is a
        delivery or content problem; not adopted: the idle-phone gap), sends by status and reason, pruned
        tokens, start vetoes, client-ended events per hour, runs of partial/none-accepted deliveries, and the
        longest stretch in which the card may have been frozen. Reads any size of log in bounded memory;
        truncated or garbled lines are reported and skipped. --json prints the same as one JSON object.
        """

    /// The log to read; nil means the default in `$LFG_HOME`.
    public let logPath: String?
    public let isJSON: Bool

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        logPath = try arguments.value("--log")
        isJSON = arguments.flag("--json")
        try arguments.finish()
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let path = logPath ?? Self.defaultLogPath(environment: context.environment)
        let report = try Self.diagnose(path: path)
        if isJSON {
            context.write(String(decoding: try WireJSON.encode(report), as: UTF8.self) + "\n")
        } else {
            context.write(report.text(source: path))
        }
        return 0
    }

    /// `$LFG_HOME/liveactivity.log`, with `LFG_HOME` defaulting to `~/.lfg`.
    static func defaultLogPath(environment: [String: String]) -> String {
        let home = environment["LFG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.lfg"
        return home + "/liveactivity.log"
    }

    /// Streams the file at `path` through the analyzer in fixed-size chunks.
    static func diagnose(path: String) throws(CommandFailure) -> DiagnosisReport {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(
                "cannot read the decision log '\(path)'; pass --log FILE or set LFG_HOME to the server's data folder")
        }
        defer { try? handle.close() }
        var analyzer = DecisionLogAnalyzer()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { analyzer.feed($0) }
            }
        } catch {
            throw CommandFailure("reading '\(path)' failed (\(error)); check the file and try again")
        }
        return analyzer.finish()
    }
}
