import APNs
import ControlPlane
import FleetCore
import Testing

/// Guard `newest-start-token`: iOS mints a new push-to-start token at launch and the old one starts
/// nothing, and APNs keeps only the last push for an offline phone; a start sent to an old token as well,
/// answered last, replaced the real start in APNs' store and the card never came (idle-phone: 541 s a run
/// with no card where the server believed one live).
@Suite("newest-start-token")
struct NewestStartTokenTests {
    /// The start's targets for a device with two sandbox push-to-start tokens (`a`, then `b` minted at a
    /// later launch) and one production token `p`.
    static func startTargets(_ guards: GuardSet, deviceEnv: PushEnvironment? = nil) -> [String] {
        var harness = WatcherHarness(guards: guards)
        if let deviceEnv { harness.report(DeviceProfile(env: deviceEnv)) }
        harness.register(.pushToStart, hex("a"))
        harness.register(.pushToStart, hex("b"))
        harness.register(.pushToStart, hex("p"), env: .production)
        harness.work("s1")
        return harness.tick().batches.first { $0.action == .start }?.targets.map(\.hex) ?? []
    }

    @Test("A start goes to the newest push-to-start token of each env, never to one a later launch replaced")
    func newestPerEnv() {
        #expect(Self.startTargets(.all) == [hex("p"), hex("b")])
    }

    @Test("A device that said its env gets the start on that env's newest token only")
    func deviceEnvOnly() {
        #expect(Self.startTargets(.all, deviceEnv: .sandbox) == [hex("b")])
        #expect(Self.startTargets(.all, deviceEnv: .production) == [hex("p")])
    }

    @Test("Without newest-start-token the start goes to every kept token, the replaced one too")
    func withoutGuard() {
        #expect(Self.startTargets(.without(.newestStartToken)) == [hex("p"), hex("b"), hex("a")])
    }

    @Test("When the newest token is pruned as dead, the next start goes to the one before it")
    func prunedNewestFallsBack() throws {
        var harness = WatcherHarness()
        harness.register(.pushToStart, hex("a"))
        harness.register(.pushToStart, hex("b"))
        harness.work("s1")
        let start = try #require(harness.tick().batches.first)
        #expect(start.targets.map(\.hex) == [hex("b")])
        harness.answer(start, [hex("b"): (410, "Unregistered")])
        let again = try #require(harness.tick().batches.first)
        #expect(again.action == .start && again.targets.map(\.hex) == [hex("a")])
    }
}
