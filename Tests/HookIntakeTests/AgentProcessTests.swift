#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FleetCore
@testable import HookIntake
import Testing

@Suite("Agent process")
struct AgentProcessTests {
    static func process(_ pid: Int32, _ name: String, parent: Int32) -> AgentProcess {
        AgentProcess(pid: pid, startTime: UInt64(pid) * 10, name: name, parentPID: parent)
    }

    @Test("The agent is the first ancestor that is not a shell")
    func walksPastShells() {
        let table = [
            300: Self.process(300, "sh", parent: 200), 200: Self.process(200, "-bash", parent: 100),
            100: Self.process(100, "claude", parent: 50), 50: Self.process(50, "zsh", parent: 1),
        ]
        #expect(AgentProcess.agent(ofParent: 300) { table[Int($0)] } == table[100])
        #expect(AgentProcess.agent(ofParent: 100) { table[Int($0)] } == table[100])
    }

    @Test("No agent when only shells lead to init, or the parent is gone")
    func noAgent() {
        let table = [300: Self.process(300, "sh", parent: 1)]
        #expect(AgentProcess.agent(ofParent: 300) { table[Int($0)] } == nil)
        #expect(AgentProcess.agent(ofParent: 999) { table[Int($0)] } == nil)
    }

    @Test("A /proc stat line whose command name holds spaces and parentheses")
    func parsesProcStat() {
        let fields = (3...30).map { $0 == 4 ? "77" : $0 == 22 ? "123456" : "0" }
        // Field 3 is the state letter.
        let stat = "4242 (node (x) y) S " + fields.dropFirst().joined(separator: " ")
        #expect(AgentProcess.parseProcStat(stat) == AgentProcess(pid: 4242, startTime: 123456, name: "node (x) y", parentPID: 77))
        #expect(AgentProcess.parseProcStat("garbage") == nil)
    }

    @Test("This test process is found running; the same id with another start time is not")
    func liveLookup() throws {
        let me = try #require(AgentProcess.lookup(getpid()))
        #expect(me.parentPID == getppid())
        #expect(me.isRunning)
        var reused = me
        reused.startTime += 1
        #expect(!reused.isRunning)
    }

    @Test("The agent record round-trips, is written once per process, and goes at the session's end")
    func recordLifecycle() throws {
        let home = try TemporaryHome()
        let me = try #require(AgentProcess.lookup(getpid()))
        let record = AgentProcessRecord(sid: "s 1", host: HostID("mbp"), agent: "codex", process: me, seenAt: 1_764_620_000)
        let key = SessionKey.of("s 1")
        try record.save(home: home.path, key: key)
        #expect(AgentProcessRecord.read(home: home.path, key: key) == record)
        #expect(AgentProcessRecord.readAll(home: home.path) == [key: record])
        #expect(AgentProcessRecord.read(home: home.path, key: key)?.isAgentRunning == true)

        // The same process again: the stored record (and its first sighting) stays.
        var later = record
        later.seenAt += 60
        try later.save(home: home.path, key: key)
        #expect(AgentProcessRecord.read(home: home.path, key: key)?.seenAt == record.seenAt)
        // Another process (the session resumed in a new agent): replaced.
        later.process.pid += 1
        try later.save(home: home.path, key: key)
        #expect(AgentProcessRecord.read(home: home.path, key: key) == later)

        try AgentProcessRecord.remove(home: home.path, key: key)
        try AgentProcessRecord.remove(home: home.path, key: key)
        #expect(AgentProcessRecord.readAll(home: home.path).isEmpty)
    }

    @Test("Session keys: plain ids kept, others hex-encoded")
    func sessionKeys() {
        #expect(SessionKey.of("0b7e-4c_Z") == "0b7e-4c_Z")
        #expect(SessionKey.of("a/b") == "x612f62")
        #expect(SessionKey.of("") == "x")
        #expect(SessionKey.of(String(repeating: "a", count: 129)) == "x" + String(repeating: "61", count: 100))
    }
}
