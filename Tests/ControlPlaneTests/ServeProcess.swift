import APNsMock
import AsyncTesting
import Foundation
import Testing
import HTTPClient
import Synchronization

/// A built `lfg serve` running as a child process, for restart and kill -9 tests.
final class ServeProcess: Sendable {
    let process: Process
    let port: Int
    let output: OutputBuffer

    /// Everything the process printed so far.
    final class OutputBuffer: Sendable {
        let text = Mutex("")
        /// A wake-up per chunk printed (``waitUntilPrinted(_:within:)``).
        let arrived = Inbox<Void>()
    }

    /// The `lfg` executable next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lfg")
    }

    /// Starts `lfg serve --port port` with `environment` and returns once it printed `readyLine` (by
    /// default its 'live activities:' line).
    static func start(port: Int, environment: [String: String], readyLine: String = "live activities:") async throws -> ServeProcess {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ServeProcessError(message: "\(executable.path) is missing; build the package (swift build) first")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "\(port)"]
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = OutputBuffer()
        let ready = Inbox<Void>()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            let text = output.text.withLock { output in
                output += String(decoding: data, as: UTF8.self)
                return output
            }
            output.arrived.yield(())
            if data.isEmpty || text.contains(readyLine) {
                ready.yield(())
                if data.isEmpty { handle.readabilityHandler = nil }
            }
        }
        try process.run()
        let serve = ServeProcess(process: process, port: port, output: output)
        do {
            _ = try await ready.next("lfg serve to print '\(readyLine)'")
        } catch {
            serve.stop(SIGKILL)
            throw ServeProcessError(message: "\(error); it printed: \(serve.printed)")
        }
        return serve
    }

    /// Runs `lfg arguments...` to its exit (a command that ends by itself, or a server expected to refuse to
    /// start); returns its exit status and output. One still running after 20 s is killed (a safety net, so
    /// the test fails instead of hanging).
    static func runToExit(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { kill(pid, SIGKILL) }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private init(process: Process, port: Int, output: OutputBuffer) {
        self.process = process
        self.port = port
        self.output = output
    }

    var printed: String { output.text.withLock { $0 } }

    /// Waits (bounded) until the process has printed `text`.
    func waitUntilPrinted(_ text: String, within limit: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + limit
        while !printed.contains(text) {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, try await output.arrived.next("'\(text)' printed", within: remaining) != nil else {
                throw ServeProcessError(message: "gave up waiting for '\(text)'; it printed: \(printed)")
            }
        }
    }

    /// Sends `signal` and waits for the process to exit; returns its status.
    @discardableResult
    func stop(_ signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        // A safety net, not a timing: a server that ignores the signal must fail the test, never hang the run.
        let giveUp = Date().addingTimeInterval(20)
        while process.isRunning && Date() < giveUp { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("lfg serve did not stop within 20 s of signal \(signal)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// One API call with the bearer token; the parsed JSON object of the answer.
    func call(_ method: String, _ path: String, _ body: String = "", token: String) async throws -> (Int, [String: Any]) {
        let response = try await HTTPClient().send(HTTPClientRequest(
            method: method, url: "http://127.0.0.1:\(port)\(path)",
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: Data(body.utf8)))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, object)
    }
}

/// A TCP port nothing listens on right now (bound to port 0, read, released).
func freePort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length)
            return getsockname(descriptor, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The pushes an APNs stand-in received, one at a time, as they arrive.
final class MockPushes: Sendable {
    let server: APNsMockServer
    private let received: Inbox<MockRecord>

    init() throws {
        let received = Inbox<MockRecord>()
        self.received = received
        server = try APNsMockServer(onRecord: { received.yield($0) })
    }

    /// The `aps.event` and token of the next push; throws if none arrives in time.
    func next() async throws -> (event: String, token: String)? {
        guard let record = try await received.next("the next push at the APNs stand-in") else { return nil }
        let aps = (record.bodyJSON as? [String: Any])?["aps"] as? [String: Any]
        return (aps?["event"] as? String ?? "?", record.token)
    }

    /// The next whole record; throws if none arrives in time.
    func nextRecord() async throws -> MockRecord? {
        try await received.next("the next push at the APNs stand-in")
    }
}

struct ServeProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
