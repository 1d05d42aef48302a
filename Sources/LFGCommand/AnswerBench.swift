import ControlPlane
import FleetCore
import Foundation
import HTTPClient
import HTTPServer
import StoreSQLite
import Synchronization

/// The machinery of `lfg bench answers`: a control plane on loopback, real `lfg hook` children, and a
/// child process holding long polls open.
struct AnswerBench: Sendable {
    struct Figures: Encodable {
        var questions: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        var postP50Milliseconds: Double
        var postP99Milliseconds: Double
        /// p99 of answer -> decision over p99 of the POST alone.
        var p99Ratio: Double
        var hookResidentMiB: Double
        var hookThreads: Int
        var waiters: Int
        var residentBeforeMiB: Double
        var residentWaitingMiB: Double
        var threadsBefore: Int
        var threadsWaiting: Int
        /// (a) with the answer POSTed to another instance (`--database-url`); absent on SQLite.
        var acrossInstances: AcrossInstances? = nil
        var store = "sqlite"
    }

    /// (a) on two instances sharing a database, answers alternating between the instance the hook waits
    /// on and the other one, so both figures come from the same minutes of the same run.
    struct AcrossInstances: Encodable {
        var questions: Int
        var sameP50Milliseconds: Double
        var sameP99Milliseconds: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        var samePostP50Milliseconds: Double
        var postP50Milliseconds: Double
        var postP99Milliseconds: Double
    }

    static let token = "bench-answers-token"
    let executable: String
    let home: String
    /// The instance the hooks report to and wait on.
    let service: ControlPlaneService
    let url: String
    /// Where answers are POSTed for the cross-instance figure: a second instance on the same database
    /// (nil on SQLite: one instance only).
    var otherURL: String? = nil
    let client = HTTPClient()
    let running: Task<Void, Never>
    /// Called once the tasks stopped (closes the instances' notification connections).
    var cleanUp: @Sendable () -> Void = {}

    static func start(executable: String) async throws -> AnswerBench {
        let home = try makeHome()
        let service = ControlPlaneService(.init(
            store: try SQLiteStore(path: home + "/" + HomeFiles.database), gateway: DisabledPushGateway(reason: "bench"),
            decisionLog: InMemoryDecisionLog()))
        try await service.start()
        let (url, loops) = try serve(service)
        return AnswerBench(executable: executable, home: home, service: service, url: url, running: running(loops))
    }

    /// A fresh `$LFG_HOME` for the bench's instances and hooks.
    static func makeHome() throws -> String {
        let home = NSTemporaryDirectory() + "lfg-bench-answers-" + UUID().uuidString
        try HomeFiles.prepare(home)
        return home
    }

    /// An HTTP server for `service` on a free loopback port, started: its base URL, and the loops that run
    /// the server and the service (until cancelled).
    static func serve(_ service: ControlPlaneService) throws -> (url: String, loops: [@Sendable () async -> Void]) {
        // Room for the waiters and the bench's own requests above the default 1,000 connections.
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, connectionLimit: 4_000),
            handler: APIRouter(service: service, authenticator: Authenticator(token: token, loginCode: nil)))
        let port = try server.start()
        return ("http://127.0.0.1:\(port)", [{ try? await server.run() }, { await service.run() }])
    }

    /// Runs every one of `loops` until the task returned is cancelled.
    static func running(_ loops: [@Sendable () async -> Void]) -> Task<Void, Never> {
        Task {
            await withTaskGroup(of: Void.self) { group in
                for loop in loops { group.addTask { await loop() } }
            }
        }
    }

    func stop() async {
        running.cancel()
        await running.value
        cleanUp()
        try? FileManager.default.removeItem(atPath: home)
    }

    func measure(questions: Int, parallel: Int, waiters: Int, progress: (String) -> Void) async throws -> Figures {
        let measured = try await answerLatencies(
            questions: questions, parallel: parallel, answerURLs: [url], sids: "bench-", progress: progress)
        let (latencies, posts, hookMemory) = (measured.latencies[0].sorted(), measured.posts[0].sorted(), measured.hookMemory)
        let (before, waiting) = try await waitingCost(waiters: waiters)
        let p99 = Self.percentile(latencies, 99)
        let postP99 = Self.percentile(posts, 99)
        return Figures(
            questions: latencies.count, p50Milliseconds: Self.percentile(latencies, 50), p99Milliseconds: p99,
            maxMilliseconds: latencies.last ?? 0, postP50Milliseconds: Self.percentile(posts, 50),
            postP99Milliseconds: postP99, p99Ratio: postP99 > 0 ? p99 / postP99 : 0,
            hookResidentMiB: hookMemory?.residentMiB ?? 0, hookThreads: hookMemory?.threads ?? 0, waiters: waiters,
            residentBeforeMiB: before.residentMiB, residentWaitingMiB: waiting.residentMiB, threadsBefore: before.threads,
            threadsWaiting: waiting.threads)
    }

    /// (a) with answers alternating between this instance and the other one (``otherURL``), while every hook
    /// waits on this one. Run it before ``measure(questions:parallel:waiters:progress:)``: the long polls
    /// (b) leaves parked would count as waiting hooks.
    func measureAcrossInstances(questions: Int, parallel: Int, progress: (String) -> Void) async throws -> AcrossInstances? {
        guard let otherURL else { return nil }
        let (latencies, posts, _) = try await answerLatencies(
            questions: questions, parallel: parallel, answerURLs: [url, otherURL], sids: "across-", progress: progress)
        let same = latencies[0].sorted()
        let across = latencies[1].sorted()
        let samePosts = posts[0].sorted()
        let acrossPosts = posts[1].sorted()
        return AcrossInstances(
            questions: across.count, sameP50Milliseconds: Self.percentile(same, 50),
            sameP99Milliseconds: Self.percentile(same, 99), p50Milliseconds: Self.percentile(across, 50),
            p99Milliseconds: Self.percentile(across, 99), maxMilliseconds: across.last ?? 0,
            samePostP50Milliseconds: Self.percentile(samePosts, 50), postP50Milliseconds: Self.percentile(acrossPosts, 50),
            postP99Milliseconds: Self.percentile(acrossPosts, 99))
    }

    /// Real hooks waiting on this instance, answered through `answerURLs` in turn: per URL, the time from
    /// sending the answer to the hook printing its decision, and the answer POST's own round trip (ms).
    private func answerLatencies(
        questions: Int, parallel: Int, answerURLs: [String], sids: String, progress: (String) -> Void
    ) async throws -> (latencies: [[Double]], posts: [[Double]], hookMemory: ProcessFigures?) {
        var latencies = [[Double]](repeating: [], count: answerURLs.count)
        var posts = [[Double]](repeating: [], count: answerURLs.count)
        var answered = 0
        var hookMemory: ProcessFigures?
        var started = 0
        while started < questions {
            let batch = min(parallel, questions - started)
            let hooks = try (0..<batch).map { try HookChild.start(
                executable: executable, sid: sids + "\(started + $0)", url: url, token: Self.token, home: home + "/hook") }
            try await until("\(batch) hooks waiting") { service.questionWaiters.count == batch }
            if hookMemory == nil { hookMemory = ProcessFigures.of(pid: hooks[0].pid) }
            let pending = await service.questionList(state: .pending)
            for hook in hooks {
                guard let question = pending.first(where: { $0.sid.rawValue == hook.sid }) else {
                    throw CommandFailure("bench: no pending question for \(hook.sid)")
                }
                let target = answered % answerURLs.count
                answered += 1
                let sent = ContinuousClock.now
                let response = try await client.send(HTTPClientRequest(
                    method: "POST", url: answerURLs[target] + "/api/questions/\(question.id)/answer",
                    headers: [("Authorization", "Bearer \(Self.token)"), ("Content-Type", "application/json")],
                    body: Data(#"{"answer":"Allow"}"#.utf8)))
                let answeredAt = ContinuousClock.now
                guard response.status == 200 else { throw CommandFailure("bench: the answer got \(response.status)") }
                let printed = try await hook.firstOutput()
                latencies[target].append(BenchServeFleet.milliseconds(printed - sent))
                posts[target].append(BenchServeFleet.milliseconds(answeredAt - sent))
            }
            for hook in hooks { hook.wait() }
            started += batch
            if started % 100 < parallel { progress("    \(started)/\(questions) answered\n") }
        }
        return (latencies, posts, hookMemory)
    }

    /// This process's memory and threads with `waiters` pending questions, before and while a child
    /// process holds a long poll open on each.
    func waitingCost(waiters: Int) async throws -> (ProcessFigures, ProcessFigures) {
        for index in 0..<waiters {
            let response = try await client.send(HTTPClientRequest(
                method: "PUT", url: url + "/api/sessions/hold-\(index)",
                headers: [("Authorization", "Bearer \(Self.token)"), ("Content-Type", "application/json")],
                body: Data(#"{"title":"hold","prompt":{"id":"hold-\#(index)","kind":"permission","text":"wait"}}"#.utf8)))
            guard response.status == 200 else { throw CommandFailure("bench: a session PUT got \(response.status)") }
        }
        let before = ProcessFigures.of(pid: getpid())
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: executable)
        holder.arguments = ["bench", "answers", "--hold", "\(waiters)", "--url", url, "--token", Self.token]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        try await until("\(waiters) long polls waiting", seconds: 60) { service.questionWaiters.count == waiters }
        return (before, ProcessFigures.of(pid: getpid()))
    }

    /// The child's side: `count` long polls open at once, each re-opened when it times out, until killed.
    static func holdWaits(count: Int, url: String, token: String) async {
        let client = HTTPClient()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    while !Task.isCancelled {
                        _ = try? await client.send(HTTPClientRequest(
                            url: url + "/api/questions/hold-\(index)/wait?timeout=300",
                            headers: [("Authorization", "Bearer \(token)")], timeout: .seconds(310)))
                    }
                }
            }
        }
    }

    /// Polls `condition` every 5 ms (a bench, not a test) until it holds, or fails after `seconds`.
    func until(_ what: String, seconds: Double = 30, _ condition: @Sendable () async -> Bool) async throws {
        let giveUp = ContinuousClock.now + .seconds(seconds)
        while !(await condition()) {
            guard ContinuousClock.now < giveUp else { throw CommandFailure("bench: gave up waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    static func percentile(_ sorted: [Double], _ percent: Int) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, sorted.count * percent / 100)]
    }
}

/// A process's resident memory and thread count, from `/proc/<pid>/status` (Linux).
struct ProcessFigures: Sendable {
    var residentMiB: Double
    var threads: Int

    static func of(pid: Int32) -> ProcessFigures {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
            return line.flatMap { Double($0.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") } ?? 0
        }
        return ProcessFigures(residentMiB: field("VmRSS") / 1024, threads: Int(field("Threads")))
    }
}

/// One real `lfg hook` process on a recorded PermissionRequest, and when it first printed.
final class HookChild: Sendable {
    let sid: String
    var pid: Int32 { process.value.processIdentifier }
    private let process: UncheckedProcess
    private let printed: Mutex<(at: ContinuousClock.Instant?, waiter: CheckedContinuation<ContinuousClock.Instant, Never>?)>

    /// `Process` is not Sendable; this one is only started, read for its pid and awaited.
    private struct UncheckedProcess: @unchecked Sendable { let value: Process }

    static func start(executable: String, sid: String, url: String, token: String, home: String) throws -> HookChild {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["hook"]
        process.environment = [
            "LFG_HOME": home, "LFG_URL": url, "LFG_AUTH_TOKEN": token, "LFG_ANSWER_POLICY": "always",
            "LFG_ANSWER_WAIT_S": "120", "LFG_HOOK_BUDGET_MS": "5000",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let child = HookChild(sid: sid, process: process)
        output.fileHandleForReading.readabilityHandler = { handle in
            guard !handle.availableData.isEmpty else { return }
            let at = ContinuousClock.now
            let waiter = child.printed.withLock { state -> CheckedContinuation<ContinuousClock.Instant, Never>? in
                guard state.at == nil else { return nil }
                state.at = at
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: at)
        }
        try process.run()
        let payload = #"{"session_id":"\#(sid)","hook_event_name":"PermissionRequest","cwd":"/work/bench","tool_name":"Bash","tool_input":{"command":"swift test"}}"#
        input.fileHandleForWriting.write(Data(payload.utf8))
        try input.fileHandleForWriting.close()
        return child
    }

    private init(sid: String, process: Process) {
        self.sid = sid
        self.process = UncheckedProcess(value: process)
        self.printed = Mutex((nil, nil))
    }

    /// When the hook first wrote to stdout; throws when it printed nothing within 30 s.
    func firstOutput() async throws -> ContinuousClock.Instant {
        let first = await withTaskGroup(of: ContinuousClock.Instant?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let at = self.printed.withLock { state -> ContinuousClock.Instant? in
                        if let at = state.at { return at }
                        state.waiter = continuation
                        return nil
                    }
                    if let at { continuation.resume(returning: at) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil {
                // Release the parked reader so the group can finish.
                let waiter = printed.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: .now)
            }
            group.cancelAll()
            return first
        }
        guard let first else { throw CommandFailure("bench: hook \(sid) printed no decision within 30 s") }
        return first
    }

    func wait() { process.value.waitUntilExit() }
}
