import APNs
import APNsHTTP2
import APNsMock
import ControlPlane
import FleetCore
import Foundation
import Sealing
import Testing

/// The words of one fleet that privacy mode must keep from Apple: the leak check's fixture.
enum PrivacyFixture {
    static let title = "Fix the login bug"
    static let secondTitle = "Refactor billing"
    static let path = "/home/ana/secret-project"
    static let step = "Running migration 42"
    static let question = "Drop the users table?"
    static let options = ["Keep both tables", "Drop it now"]
    static let answer = "Drop it now"
    static var words: [String] { [title, secondTitle, path, step, question, answer] + options }
}

/// The control plane, sealing, the real HTTP/2 transport and the APNs stand-in with its leak check on, through
/// a whole cycle: a card starts, changes, asks a question (alert, answer, withdrawal) and ends.
struct PrivacyWorld {
    let mock: APNsMockServer
    let sender: HTTP2PushSender
    let service: ControlPlaneService
    let time = ManualTime(1_800_000_000)

    init() async throws {
        mock = try APNsMockServer(bundleID: BundleID("com.example.lfg"))
        mock.state.checkLeaks(LeakCheck(words: PrivacyFixture.words))
        sender = try HTTP2PushSender.pointed(at: mock)
        let bundle = BundleID("com.example.lfg")
        service = ControlPlaneService(.init(
            store: InMemoryStore(), gateway: APNsPushGateway(sender: sender, channels: sender, bundleID: bundle),
            decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock,
            questionNotifier: APNsQuestionNotifier(sender: sender, bundleID: bundle), alertSealing: HPKEAlertSealing()))
        try await service.start()
    }

    func stop() {
        sender.shutdown()
        mock.stop()
    }

    /// The whole cycle for one phone (push-to-start `a`, update `b`, alerts `c`); with `beside`, a second phone
    /// that says privacy false (push-to-start `d`, update `e`, alerts `f`) goes through it on the same server.
    func runCycle(privacy: Bool?, sealKey: SealPublicKey?, channels: Bool = false, besideAPhoneInTheClear beside: Bool = false)
        async throws
    {
        try await service.reportDevice(
            "phone", DeviceProfile(env: .sandbox, apnsToken: hexC, liveActivityChannels: channels, privacy: privacy),
            pushToStartToken: hexA, sealKey: sealKey?.base64)
        if beside {
            try await service.reportDevice(
                "clear-phone", DeviceProfile(env: .sandbox, apnsToken: ClearPhone.alerts, privacy: false),
                pushToStartToken: ClearPhone.start)
        }
        try await step { try await service.putSession("s1", SessionReport(title: PrivacyFixture.title, cwd: PrivacyFixture.path, busy: true)) }
        try await service.registerToken("phone", .update, env: .sandbox, hex: hexB)
        if beside { try await service.registerToken("clear-phone", .update, env: .sandbox, hex: ClearPhone.update) }
        try await step {
            try await service.putSession("s1", SessionReport(
                title: PrivacyFixture.title, cwd: PrivacyFixture.path, busy: true, step: PrivacyFixture.step))
            try await service.putSession("s2", SessionReport(title: PrivacyFixture.secondTitle, cwd: PrivacyFixture.path, busy: true))
        }
        let prompt = Prompt(id: "q1", kind: .question, text: PrivacyFixture.question, options: PrivacyFixture.options)
        try await step {
            try await service.putSession("s1", SessionReport(
                title: PrivacyFixture.title, cwd: PrivacyFixture.path, busy: true, prompt: prompt))
        }
        await service.sendQuestionPushes()
        _ = try await service.answerQuestion("q1", PrivacyFixture.answer, by: "phone")
        await service.sendQuestionPushes()
        try await step {
            try await service.putSession("s1", SessionReport(title: PrivacyFixture.title, cwd: PrivacyFixture.path))
            try await service.putSession("s2", SessionReport(title: PrivacyFixture.secondTitle, cwd: PrivacyFixture.path))
        }
        await tick()
    }

    private func step(_ change: () async throws -> Void) async throws {
        try await change()
        await tick()
    }

    private func tick() async {
        time.advance(PushBudget().routineInterval)
        await service.tick()
        await service.tick()
    }

    var alerts: [MockRecord] { mock.state.records(for: hexC) }
}

let hexC = String(repeating: "c", count: 64)

/// The tokens of the phone beside the private one that says privacy false.
enum ClearPhone {
    static let start = String(repeating: "d", count: 64)
    static let update = String(repeating: "e", count: 64)
    static let alerts = String(repeating: "f", count: 64)
    static var targets: Set<String> { Set([start, update, alerts].map { String($0.prefix(8)) }) }
}

@Suite(.timeLimit(.minutes(1))) struct PrivacyLeakTests {
    @Test("Privacy on with a sealKey: no push of the whole cycle carries a fixture word, and the alert opens on the phone's key")
    func privateAndSealed() async throws {
        let world = try await PrivacyWorld()
        defer { world.stop() }
        try await world.runCycle(privacy: true, sealKey: phoneSealKey.publicKey)
        #expect(world.mock.state.leaks == [])
        #expect(world.mock.state.leakChecked >= 6)
        let kinds = Set(world.mock.state.records.compactMap { aps($0)["event"] as? String })
        #expect(kinds.isSuperset(of: ["start", "update", "end"]))
        let alert = try #require(world.alerts.first { ($0.bodyJSON as? [String: Any])?["lfgSeal"] != nil })
        let seal = try #require((alert.bodyJSON as? [String: Any])?["lfgSeal"] as? [String: String])
        let opened = try ReferenceOpener(key: phoneSealKey).open(try SealedAlert(keyID: seal["kid"]!, base64: seal["box"]!))
        let words = try #require(AlertWords(sealedBytes: opened))
        #expect(words.body == PrivacyFixture.question)
        #expect(words.options == PrivacyFixture.options)
        #expect(words.title == PrivacyFixture.title)
        #expect((aps(alert)["alert"] as? [String: String]) == ["body": AlertWords.placeholder])
    }

    @Test("Privacy on without a key: no leak, and the alert says only the placeholder")
    func privateUnsealed() async throws {
        let world = try await PrivacyWorld()
        defer { world.stop() }
        try await world.runCycle(privacy: true, sealKey: nil)
        #expect(world.mock.state.leaks == [])
        let alert = try #require(world.alerts.first)
        #expect((aps(alert)["alert"] as? [String: String]) == ["body": AlertWords.placeholder])
        #expect((alert.bodyJSON as? [String: Any])?["lfgSeal"] == nil)
    }

    @Test("Privacy on in channel mode: the broadcasts carry no fixture word either")
    func privateChannels() async throws {
        let world = try await PrivacyWorld()
        defer { world.stop() }
        try await world.runCycle(privacy: true, sealKey: phoneSealKey.publicKey, channels: true)
        #expect(world.mock.state.records.contains { $0.kind == .broadcast })
        #expect(world.mock.state.leaks == [])
    }

    @Test("Privacy is per device: beside a phone in the clear, the private phone's pushes carry no fixture word")
    func privacyIsPerDevice() async throws {
        let world = try await PrivacyWorld()
        defer { world.stop() }
        try await world.runCycle(privacy: true, sealKey: phoneSealKey.publicKey, besideAPhoneInTheClear: true)
        let privateTargets = Set([hexA, hexB, hexC].map { String($0.prefix(8)) })
        #expect(world.mock.state.records.contains { privateTargets.contains(String($0.token.prefix(8))) })
        #expect(world.mock.state.leaks.filter { privateTargets.contains($0.target) } == [])
        // The other phone said privacy false: it gets the words, and the check catches them (it can fail here too).
        let clearLeaks = world.mock.state.leaks.filter { ClearPhone.targets.contains($0.target) }
        #expect(Set(clearLeaks.flatMap(\.words)).isSuperset(of: [PrivacyFixture.title, PrivacyFixture.question]))
        #expect(world.mock.state.leaks.allSatisfy { ClearPhone.targets.contains($0.target) })
    }

    @Test("The same check fails with privacy off: titles and the question reach the stand-in")
    func checkCanFail() async throws {
        let world = try await PrivacyWorld()
        defer { world.stop() }
        try await world.runCycle(privacy: false, sealKey: nil)
        let leaked = Set(world.mock.state.leaks.flatMap(\.words))
        #expect(leaked.isSuperset(of: [PrivacyFixture.title, PrivacyFixture.question] + PrivacyFixture.options))
    }
}
