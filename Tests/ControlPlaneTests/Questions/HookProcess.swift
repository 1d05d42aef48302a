import Foundation
import Synchronization

/// A real `lfg hook` child process fed one event on stdin; its exit status and everything it printed.
final class HookProcess: Sendable {
    struct Finished: Sendable {
        var status: Int32
        var output: String
    }

    private struct UncheckedProcess: @unchecked Sendable { let value: Process }  // started once, then only awaited
    private let process: UncheckedProcess
    private let finished: Mutex<(result: Finished?, waiter: CheckedContinuation<Finished, Never>?)> = Mutex((nil, nil))

    /// Starts `lfg hook` with `environment` and writes `payload` to its stdin.
    init(payload: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = ServeProcess.executable
        process.arguments = ["hook"]
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        self.process = UncheckedProcess(value: process)
        process.terminationHandler = { [self] process in
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let result = Finished(status: process.terminationStatus, output: text)
            let waiter = finished.withLock { state in
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: result)
        }
        try process.run()
        input.fileHandleForWriting.write(Data(payload.utf8))
        try input.fileHandleForWriting.close()
    }

    /// Whether it is still running.
    var isRunning: Bool { finished.withLock { $0.result == nil } }

    /// Returns once the process exited.
    func finish() async -> Finished {
        await withCheckedContinuation { continuation in
            let result = finished.withLock { state -> Finished? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let result { continuation.resume(returning: result) }
        }
    }

    /// Stops it if it still runs (a failed test must not leave it behind).
    func stop() { if process.value.isRunning { process.value.terminate() } }
}
