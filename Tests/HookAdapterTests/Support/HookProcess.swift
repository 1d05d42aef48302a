import AsyncTesting
import Foundation

/// The built `lfg hook` as a child process, for tests that need real processes (a burst, a kill -9).
enum HookProcess {
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
        _ payload: String, environment: [String: String], finished: @escaping @Sendable (Int32) -> Void = { _ in }
    ) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { throw Missing(path: executable.path) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["hook"]
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
    static func burst(_ payloads: [String], environment: [String: String]) async throws -> [Int32] {
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for payload in payloads {
                let exit = Inbox<Int32>()
                _ = try start(payload, environment: environment) { exit.yield($0) }
                group.addTask { try await exit.next("an lfg hook process of the burst to exit") ?? -1 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
