import FleetCore
import Foundation
import HTTPServer
import HTTPTypes
import HookIntake
import HostAgent
import HostAgentCurl
import HostAgentPOSIX
import Synchronization
import Testing

/// The host agent's POSIX edges against real processes and a real HTTP server.
@Suite("lfg host: process watch and heartbeat")
struct HostEdgesTests {
    /// A running process's start time from /proc (the hooks' reader does the same in production).
    static func startTime(_ pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else {
            return nil
        }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Polls `descriptors` for up to `seconds`; the readable ones.
    static func readable(_ descriptors: [Int32], within seconds: Double) -> Set<Int32> {
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&polled, nfds_t(polled.count), Int32(seconds * 1000))
        return Set(polled.filter { $0.revents != 0 }.map(\.fd))
    }

    @Test("A watched process killed with -9 makes its descriptor readable: no polling, the key is reported once")
    func killedProcess() throws {
        let pid = try ChildProcess.spawn(["/bin/sleep", "30"]).get()
        defer { _ = ChildProcess.reap(pid) }
        let start = try #require(Self.startTime(pid))
        let watch = ProcessExitWatch(startTime: Self.startTime)
        #expect(watch.watch("s1", AgentProcess(pid: pid, startTime: start, name: "sleep", parentPID: 1)))
        #expect(Self.readable(watch.descriptors, within: 0.05).isEmpty)
        kill(pid, SIGKILL)
        let ready = Self.readable(watch.descriptors, within: 10)
        #expect(watch.exited(ready: ready) == ["s1"])
        #expect(watch.descriptors.isEmpty)
    }

    @Test("A process that is gone, or whose id now runs another program (other start time), is not watched")
    func goneOrReused() throws {
        let watch = ProcessExitWatch(startTime: Self.startTime)
        let pid = try ChildProcess.spawn(["/bin/sleep", "30"]).get()
        defer {
            kill(pid, SIGKILL)
            while ChildProcess.reap(pid) == nil { usleep(1000) }
        }
        let start = try #require(Self.startTime(pid))
        #expect(!watch.watch("reused", AgentProcess(pid: pid, startTime: start + 1, name: "sleep", parentPID: 1)))
        #expect(!watch.watch("gone", AgentProcess(pid: 999_999_999, startTime: 1, name: "gone", parentPID: 1)))
        #expect(watch.descriptors.isEmpty)
    }

    @Test("ChildProcess reports a child's exit status; a missing program is an error naming it")
    func children() throws {
        let pid = try ChildProcess.spawn(["/bin/sh", "-c", "exit 3"]).get()
        var status: Int32?
        for _ in 0..<5000 where status == nil {
            status = ChildProcess.reap(pid)
            if status == nil { usleep(1000) }
        }
        #expect(status == 3)
        guard case .failure(let error) = ChildProcess.spawn(["/nonexistent/lfg", "hooks", "drain"]) else {
            Issue.record("spawned a missing program")
            return
        }
        #expect(error.description.contains("/nonexistent/lfg"))
    }

    /// Both heartbeats (the plain socket's and libcurl's) against the same server.
    static let senders: [String] = ["socket", "curl"]

    /// Heartbeats with TTLs `ttls` through one new sender, on a thread of their own: a sender blocks (as in
    /// lfg-host's one loop), and blocking the test's cooperative threads would starve the server it calls.
    static func beats(
        _ kind: String, port: Int, host: HostID, token: String?, ttls: [Double], timeoutSeconds: Double = 5
    ) async throws -> [HeartbeatOutcome] {
        let address = try ServerAddress(parsing: "http://127.0.0.1:\(port)")
        return await withCheckedContinuation { continuation in
            Thread {
                let sender: (any HeartbeatSender)? =
                    kind == "socket"
                    ? SocketHeartbeat(address: address, host: host, token: token, timeoutSeconds: timeoutSeconds)
                    : CurlHeartbeat(address: address, host: host, token: token, timeoutSeconds: timeoutSeconds)
                continuation.resume(returning: ttls.map { sender?.send(ttlSeconds: $0) ?? .unreachable("libcurl did not start") })
            }.start()
        }
    }

    @Test("The heartbeat PUTs /api/hosts/{host} with its TTL and token; 401 is refused; no server is unreachable", arguments: senders)
    func heartbeat(kind: String) async throws {
        let seen = Mutex<[HTTPRequest]>([])
        let server = HTTPServer(
            configuration: .init(port: 0),
            handler: HandlerFunction { request in
                seen.withLock { $0.append(request) }
                return request.header("Authorization") == "Bearer t0ken" ? .json(["ok": true]) : HTTPResponse(status: 401)
            })
        let port = Int(try server.start())
        let running = Task { try await server.run() }
        defer { running.cancel() }
        #expect(try await Self.beats(kind, port: port, host: "ann's mbp", token: "t0ken", ttls: [60, 59.2]) == [.accepted, .accepted])
        let requests = seen.withLock { $0 }
        let request = try #require(requests.first)
        #expect(request.method == "PUT")
        #expect(request.path == "/api/hosts/ann's mbp")
        #expect(request.header("Content-Type") == "application/json")
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"ttlSeconds":60}"#, #"{"ttlSeconds":60}"#])
        #expect(try await Self.beats(kind, port: port, host: "h", token: "nope", ttls: [60]) == [.refused(status: 401)])
        #expect(try await Self.beats(kind, port: port, host: "h", token: nil, ttls: [60]) == [.refused(status: 401)])
        running.cancel()
        _ = try? await running.value
        let none = try await Self.beats(kind, port: 1, host: "h", token: nil, ttls: [60], timeoutSeconds: 2)
        guard case .unreachable = none.first else {
            Issue.record("a closed port answered: \(none)")
            return
        }
    }

    @Test("The plain-socket heartbeat gives up at its deadline on a server that accepts but never answers")
    func socketHeartbeatDeadline() throws {
        let silent = try QuietListener()
        defer { silent.close() }
        let address = try ServerAddress(parsing: "http://127.0.0.1:\(silent.port)")
        let beat = SocketHeartbeat(address: address, host: "h", token: nil, timeoutSeconds: 0.3)
        guard case .unreachable(let why) = beat.send(ttlSeconds: 60) else {
            Issue.record("a silent server counted as an answer")
            return
        }
        #expect(why.contains("did not answer within"))
    }
}

/// A loopback listener that never accepts: connections complete in the kernel's backlog and then hear nothing.
struct QuietListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_LOOPBACK.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(descriptor, 4) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    func close() { _ = Glibc.close(descriptor) }
}
