import FleetCore
import Foundation
import HTTPServer
import HTTPTypes
import HookIntake
import HostAgent
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

    @Test("The heartbeat PUTs /api/hosts/{host} with its TTL and token; 401 is refused; no server is unreachable")
    func heartbeat() async throws {
        let seen = Mutex<[HTTPRequest]>([])
        let server = HTTPServer(
            configuration: .init(port: 0),
            handler: HandlerFunction { request in
                seen.withLock { $0.append(request) }
                return request.header("Authorization") == "Bearer t0ken" ? .json(["ok": true]) : HTTPResponse(status: 401)
            })
        let port = try server.start()
        let running = Task { try await server.run() }
        defer { running.cancel() }
        let beat = try #require(CurlHeartbeat(baseURL: "http://127.0.0.1:\(port)", host: "ann's mbp", token: "t0ken"))
        #expect(beat.send(ttlSeconds: 60) == .accepted)
        let request = try #require(seen.withLock { $0.first })
        #expect(request.method == "PUT")
        #expect(request.path == "/api/hosts/ann's mbp")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"ttlSeconds":60}"#)
        #expect(request.header("Content-Type") == "application/json")
        let wrong = try #require(CurlHeartbeat(baseURL: "http://127.0.0.1:\(port)", host: "h", token: "nope"))
        #expect(wrong.send(ttlSeconds: 60) == .refused(status: 401))
        running.cancel()
        _ = try? await running.value
        let none = try #require(CurlHeartbeat(baseURL: "http://127.0.0.1:1", host: "h", token: nil, timeoutSeconds: 2))
        guard case .unreachable = none.send(ttlSeconds: 60) else {
            Issue.record("a closed port answered")
            return
        }
    }
}
