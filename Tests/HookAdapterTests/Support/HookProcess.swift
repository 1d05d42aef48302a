import AsyncTesting
import Foundation

/// The built `lfg hook` (or `lfg-hook`, the cheap start `lfg hooks install` writes) as a child process,
/// for tests that need real processes (a burst, a kill -9).
enum HookProcess {
    /// Which command runs the hook.
    enum Program: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `lfg hook`.
        case lfgHook = "lfg hook"
        /// `lfg-hook` (beside `lfg`).
        case fastStart = "lfg-hook"

        var description: String { rawValue }

        var url: URL { self == .lfgHook ? executable : executable.deletingLastPathComponent().appendingPathComponent("lfg-hook") }
        var arguments: [String] { self == .lfgHook ? ["hook"] : [] }
    }

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing; build the package (swift build) first" }
    }

    /// The `lfg` executable next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lfg")
    }

    /// Starts `lfg hook` with `payload` on stdin; `finished` is called with its exit status.
    static func start(
        _ payload: String, environment: [String: String], program: Program = .lfgHook,
        finished: @escaping @Sendable (Int32) -> Void = { _ in }
    ) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: program.url.path) else { throw Missing(path: program.url.path) }
        let process = Process()
        process.executableURL = program.url
        process.arguments = program.arguments
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { finished($0.terminationStatus) }
        try process.run()
        input.fileHandleForWriting.write(Data(payload.utf8))
        try input.fileHandleForWriting.close()
        return process
    }

    /// Runs every payload as its own `lfg hook` process, all at once; returns their exit statuses.
    static func burst(_ payloads: [String], environment: [String: String], program: Program = .lfgHook) async throws -> [Int32] {
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for payload in payloads {
                let exit = Inbox<Int32>()
                _ = try start(payload, environment: environment, program: program) { exit.yield($0) }
                group.addTask { try await exit.next("an lfg hook process of the burst to exit") ?? -1 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
