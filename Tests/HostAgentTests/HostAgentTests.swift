import FleetCore
import HookIntake
import HostAgent
import Testing

@Suite("lfg host: the reducer")
struct HostAgentTests {
    static let claude = AgentProcessRecord(
        sid: "s1", host: "mbp", agent: "claude", process: AgentProcess(pid: 4242, startTime: 77, name: "claude", parentPID: 1), seenAt: 0)

    @Test("At start it heartbeats, reads the agent records and delivers whatever is pending")
    func start() {
        var agent = HostAgent()
        #expect(agent.handle(.started(at: 0)) == [.sendHeartbeat(ttlSeconds: 60), .scanAgents, .startDrain])
        #expect(agent.drain == .running)
    }

    @Test("Heartbeats every interval with a TTL of three intervals; one at a time")
    func heartbeatCadence() {
        var agent = HostAgent()
        _ = agent.handle(.started(at: 0))
        #expect(agent.handle(.timerFired(at: 1)) == [.wake(at: 0)])  // one in flight: nothing more
        #expect(agent.handle(.heartbeatAnswered(.accepted, at: 1)) == [.wake(at: 21)])
        #expect(agent.handle(.timerFired(at: 20)) == [.wake(at: 21)])
        #expect(agent.handle(.timerFired(at: 21)) == [.sendHeartbeat(ttlSeconds: 60)])
    }

    @Test("An unreachable server is retried every 5 s, said once; when it answers again the inbox is delivered")
    func serverComesBack() {
        var agent = HostAgent()
        _ = agent.handle(.started(at: 0))
        _ = agent.handle(.drainFinished(succeeded: false, at: 1))
        let down = agent.handle(.heartbeatAnswered(.unreachable("connection refused"), at: 1))
        #expect(down.contains(.wake(at: 6)))
        #expect(down.contains { if case .log = $0 { true } else { false } })
        _ = agent.handle(.timerFired(at: 6))
        #expect(agent.handle(.heartbeatAnswered(.unreachable("connection refused"), at: 6)) == [.wake(at: 11)])
        _ = agent.handle(.timerFired(at: 11))
        let back = agent.handle(.heartbeatAnswered(.accepted, at: 11))
        #expect(back.contains(.startDrain))
        #expect(back.last == .wake(at: 31))
        #expect(agent.server == .up)
    }

    @Test("A refused token backs off to the normal interval instead of retrying every 5 s")
    func refusedToken() {
        var agent = HostAgent()
        _ = agent.handle(.started(at: 0))
        #expect(agent.handle(.heartbeatAnswered(.refused(status: 401), at: 0)).last == .wake(at: 20))
    }

    @Test("Rings during a drain start exactly one more drain after it")
    func coalescedDrains() {
        var agent = HostAgent()
        _ = agent.handle(.started(at: 0))
        #expect(agent.handle(.doorbellRang(at: 1)) == [.scanAgents])
        #expect(agent.handle(.doorbellRang(at: 1)) == [.scanAgents])
        #expect(agent.drain == .runningThenAgain)
        #expect(agent.handle(.drainFinished(succeeded: true, at: 2)) == [.startDrain])
        #expect(agent.handle(.drainFinished(succeeded: true, at: 3)) == [])
        #expect(agent.drain == .idle)
        #expect(agent.handle(.doorbellRang(at: 4)) == [.scanAgents, .startDrain])
    }

    @Test("A recorded agent is watched; when its process is gone the session's end is recorded, then delivered")
    func agentDies() {
        var agent = HostAgent()
        _ = agent.handle(.started(at: 0))
        _ = agent.handle(.drainFinished(succeeded: true, at: 0))
        #expect(agent.handle(.agentsScanned(["s1": Self.claude], at: 1)) == [.watch(key: "s1", Self.claude)])
        #expect(agent.handle(.agentsScanned(["s1": Self.claude], at: 2)) == [])  // already watched
        let exited = agent.handle(.agentExited(key: "s1", at: 3))
        #expect(exited.last == .recordSessionEnd(key: "s1", Self.claude))
        #expect(agent.handle(.agentExited(key: "s1", at: 3)) == [])  // once
        #expect(agent.handle(.sessionEndRecorded(key: "s1", problem: nil, at: 3)) == [.startDrain])
        #expect(agent.watched.isEmpty)
    }

    @Test("A session that ended by itself (record removed) or moved to a new process is unwatched, then rewatched")
    func recordChanges() {
        var agent = HostAgent()
        _ = agent.handle(.agentsScanned(["s1": Self.claude], at: 1))
        var moved = Self.claude
        moved.process.pid = 5000
        #expect(agent.handle(.agentsScanned(["s1": moved], at: 2)) == [.unwatch(key: "s1"), .watch(key: "s1", moved)])
        #expect(agent.handle(.agentsScanned([:], at: 3)) == [.unwatch(key: "s1")])
        #expect(agent.handle(.agentExited(key: "s1", at: 4)) == [])  // no longer watched: nothing to end
    }

    @Test("A server outage never ends a session: only a gone process does")
    func outageIsNotDeath() {
        var agent = HostAgent()
        _ = agent.handle(.started(at: 0))
        _ = agent.handle(.agentsScanned(["s1": Self.claude], at: 0))
        for time in stride(from: 0.0, to: 600, by: 5) {
            let effects = agent.handle(.heartbeatAnswered(.unreachable("timed out"), at: time)) + agent.handle(.timerFired(at: time + 5))
            #expect(!effects.contains { if case .recordSessionEnd = $0 { true } else { false } })
        }
        #expect(agent.watched["s1"] == Self.claude)
    }

    @Test("An end that cannot be recorded is said, and the session is not ended twice")
    func endNotRecorded() {
        var agent = HostAgent()
        _ = agent.handle(.agentsScanned(["s1": Self.claude], at: 1))
        _ = agent.handle(.agentExited(key: "s1", at: 2))
        let effects = agent.handle(.sessionEndRecorded(key: "s1", problem: "disk full", at: 2))
        #expect(effects.count == 1)
        #expect(agent.ending.isEmpty)
    }
}
