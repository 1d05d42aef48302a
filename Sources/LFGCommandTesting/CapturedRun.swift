import Foundation
import LFGCommand
import Synchronization

/// Runs `lfg` in memory, as tests do: stdin from a string, stdout and stderr kept, the environment given.
public final class CapturedRun: Sendable {
    let output = Mutex("")
    let errors = Mutex("")

    /// Runs `lfg arguments` and returns its exit status and everything it printed.
    public static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async
        -> (status: Int32, output: String, errors: String)
    {
        let capture = CapturedRun()
        let context = CommandContext(
            readInput: { Data(input.utf8) },
            write: { text in capture.output.withLock { $0 += text } },
            writeError: { text in capture.errors.withLock { $0 += text } },
            environment: environment)
        let status = await LFG.main(arguments: arguments, context: context)
        return (status, capture.output.withLock { $0 }, capture.errors.withLock { $0 })
    }
}
