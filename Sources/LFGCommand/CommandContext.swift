import Foundation
import HookAdapter

/// What a running command may touch of its process: stdin, stdout, stderr and the environment.
///
/// Commands never reach for `FileHandle.standardInput` or `ProcessInfo` themselves, so tests run
/// them in memory (module LFGCommandTesting's `CapturedRun`).
public struct CommandContext: Sendable {
    public let readInput: @Sendable () -> Data
    public let write: @Sendable (String) -> Void
    public let writeError: @Sendable (String) -> Void
    public let environment: [String: String]
    /// Seconds since the process started (0 in memory): `lfg hook`'s time budget counts from the
    /// process's start, since loading the executable under a burst of hooks takes time too.
    public let processAge: @Sendable () -> Double

    public init(
        readInput: @escaping @Sendable () -> Data,
        write: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        environment: [String: String],
        processAge: @escaping @Sendable () -> Double = { 0 }
    ) {
        self.readInput = readInput
        self.write = write
        self.writeError = writeError
        self.environment = environment
        self.processAge = processAge
    }

    /// The real process: stdin, stdout, stderr and `ProcessInfo`'s environment.
    public static func process() -> CommandContext {
        CommandContext(
            readInput: { FileHandle.standardInput.readDataToEndOfFile() },
            write: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            environment: ProcessInfo.processInfo.environment,
            processAge: ProcessAge.seconds
        )
    }
}
