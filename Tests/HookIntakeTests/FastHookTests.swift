#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FleetCore
import HookIntake
import Synchronization
import Testing

@Suite("lfg-hook: record, ring, and hand the rest to lfg hook")
struct FastHookTests {
    static let agent = AgentProcess(pid: 4242, startTime: 99, name: "claude", parentPID: 1)

    final class Rings: Sendable {
        let keys = Mutex<[String]>([])
        let answered: Bool
        init(answered: Bool) { self.answered = answered }
        func ring(_ key: String) -> Bool {
            keys.withLock { $0.append(key) }
            return answered
        }
    }

    static func hook(home: String, rings: Rings, agent: any AgentAdapter = ClaudeCodeAdapter()) -> FastHook {
        FastHook(
            home: home, host: HostID("mbp"), agent: agent, ring: { rings.ring($0) }, agentProcess: { Self.agent },
            wallNanoseconds: { 1_764_620_000_123_000_000 }, processID: 77)
    }

    static func input(_ json: String) -> [UInt8] { Array(json.utf8) }

    static let prompt = #"{"session_id":"s-1","hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"hi","tool_response":"a whole file"}"#

    @Test("An event is recorded as one inbox entry, its agent process kept, and the host rung with its session")
    func recordsAndRings() throws {
        let home = try TemporaryHome()
        let rings = Rings(answered: true)
        let outcome = Self.hook(home: home.path, rings: rings).handle(Self.input(Self.prompt))
        #expect(outcome == FastHook.Outcome(next: .done(key: "s-1")))
        #expect(rings.keys.withLock { $0 } == ["s-1"])
        let name = "01764620000123000000-0000000077.json"
        let bytes = try #require(readFile(home.path + "/hook-inbox/s-1/" + name))
        let recorded = try #require(RecordedEvent.decode(String(decoding: bytes, as: UTF8.self)))
        #expect(recorded.event == HookEvent(name: .userPromptSubmit, sessionID: "s-1", cwd: "/w", prompt: "hi"))
        #expect(recorded.host == HostID("mbp"))
        #expect(recorded.agentPID == 4242)
        #expect(recorded.recordedAt == 1_764_620_000.123)
        #expect(AgentProcessRecord.read(home: home.path, key: "s-1")
            == AgentProcessRecord(sid: "s-1", host: HostID("mbp"), agent: "claude", process: Self.agent, seenAt: 1_764_620_000.123))
    }

    @Test("No host listening: recorded, and the session is left to deliver now")
    func noHost() throws {
        let home = try TemporaryHome()
        let outcome = Self.hook(home: home.path, rings: Rings(answered: false)).handle(Self.input(Self.prompt))
        #expect(outcome.next == .deliver(key: "s-1"))
        #expect(readFile(home.path + "/hook-inbox/s-1/01764620000123000000-0000000077.json") != nil)
    }

    @Test("Events that may wait for the phone go whole to lfg hook, unrecorded and unrung", arguments: [
        #"{"session_id":"s","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}"#,
        #"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{}}"#,
        #"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"ExitPlanMode","tool_input":{}}"#,
    ])
    func phoneGates(json: String) throws {
        let home = try TemporaryHome()
        let rings = Rings(answered: true)
        for agent in [ClaudeCodeAdapter(), CodexAdapter()] as [any AgentAdapter] {
            #expect(Self.hook(home: home.path, rings: rings, agent: agent).handle(Self.input(json)).next
                == .fullPath(reason: "may wait for the phone"))
        }
        #expect(rings.keys.withLock { $0 }.isEmpty)
        #expect(access(home.path + "/hook-inbox/s", F_OK) != 0)
    }

    @Test("A PreToolUse of another tool stays on the cheap path")
    func ordinaryToolCall() throws {
        let home = try TemporaryHome()
        let json = #"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#
        #expect(Self.hook(home: home.path, rings: Rings(answered: true)).handle(Self.input(json)).next == .done(key: "s"))
    }

    @Test("Input that is not an event, or an inbox that cannot be written, goes to lfg hook to explain")
    func problemsGoToFullPath() throws {
        let home = try TemporaryHome()
        let rings = Rings(answered: true)
        #expect(Self.hook(home: home.path, rings: rings).handle(Self.input("not json")).next == .fullPath(reason: "unreadable input"))
        #expect(Self.hook(home: home.path, rings: rings).handle(Self.input(#"{"hook_event_name":"Stop"}"#)).next
            == .fullPath(reason: "unreadable input"))
        let unwritable = Self.hook(home: "/proc/lfg-no-such-home", rings: rings).handle(Self.input(Self.prompt))
        guard case .fullPath = unwritable.next else {
            Issue.record("an unwritable inbox must go to lfg hook, got \(unwritable)")
            return
        }
        #expect(rings.keys.withLock { $0 }.isEmpty)
    }

    @Test("SessionEnd removes the session's agent process record")
    func sessionEndForgetsAgent() throws {
        let home = try TemporaryHome()
        let hook = Self.hook(home: home.path, rings: Rings(answered: true))
        _ = hook.handle(Self.input(Self.prompt))
        #expect(AgentProcessRecord.read(home: home.path, key: "s-1") != nil)
        let outcome = hook.handle(Self.input(#"{"session_id":"s-1","hook_event_name":"SessionEnd","reason":"exit"}"#))
        #expect(outcome.next == .done(key: "s-1"))
        #expect(AgentProcessRecord.read(home: home.path, key: "s-1") == nil)
    }

    @Test("Settings: LFG_HOME, else ~/.lfg; LFG_HOST from the environment, then .env, then the machine's name")
    func settings() {
        let files = ["/h/.env": "LFG_HOST=from-dotenv\n"]
        let fromDotEnv = HookSettings(environment: ["LFG_HOME": "/h"]) { files[$0] }
        #expect(fromDotEnv.home == "/h")
        #expect(fromDotEnv.host(hostName: "machine") == HostID("from-dotenv"))
        let fromEnvironment = HookSettings(environment: ["LFG_HOME": "/h", "LFG_HOST": "env"]) { files[$0] }
        #expect(fromEnvironment.host(hostName: "machine") == HostID("env"))
        let plain = HookSettings(environment: ["HOME": "/home/ana"]) { _ in nil }
        #expect(plain.home == "/home/ana/.lfg")
        #expect(plain.host(hostName: "machine") == HostID("machine"))
        #expect(plain.host(hostName: nil) == .local)
    }
}
