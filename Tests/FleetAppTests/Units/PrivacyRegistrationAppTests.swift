import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// Privacy mode on the app's side (contract 8.3): the person's choice and the phone's own sealing key reach the
/// server in the device registration (`PUT /api/devices/{id}`), and a lost key is replaced and sent again.
@Suite("Privacy registration from the app")
struct PrivacyRegistrationAppTests {
    static let first = PhoneSealKey(registration: "Zmlyc3Qga2V5", keyID: "1111111111111111")
    static let second = PhoneSealKey(registration: "c2Vjb25kIGtleQ==", keyID: "2222222222222222")

    @Test("At its first launch the phone makes its key and registers it; a relaunch registers the same key")
    func firstLaunchMakesAndRegistersTheKey() {
        let keyring = InMemorySealKeyring(keysToMake: [Self.first])
        let harness = PhoneHarness(privacy: true, sealKeys: keyring)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        #expect(harness.deviceRegistrations.last?.sealKey == Self.first.registration)
        #expect(harness.deviceRegistrations.last?.privacy == true)
        harness.phone.terminate()
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        #expect(harness.deviceRegistrations.last?.sealKey == Self.first.registration)
        #expect(keyring.made == [Self.first], "one key, kept across launches")
        #expect(keyring.unexpectedCalls.isEmpty)
    }

    @Test("The person's privacy choice goes to the server at once, and only when it changes")
    func privacyChoiceIsSent() throws {
        let harness = PhoneHarness(privacy: false)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        #expect(harness.deviceRegistrations.map(\.privacy) == [false])
        let app = try #require(harness.phone.app)
        app.privacyChanged(true)
        harness.run(for: 1)
        #expect(harness.deviceRegistrations.map(\.privacy) == [false, true])
        app.privacyChanged(true)
        harness.run(for: 1)
        #expect(harness.deviceRegistrations.count == 2, "the same choice again sends nothing")
        #expect(harness.deviceRegistrations.last?.sealKey == nil, "no keyring: no key")
    }

    @Test("A server that lost the key is sent it again at the next foregrounding, once per key")
    func serverThatLostTheKeyGetsItAgain() {
        let keyring = InMemorySealKeyring(current: Self.first)
        let harness = PhoneHarness(sealKeys: keyring)
        harness.deviceInfo = DeviceChannelInfo(channelId: nil, mode: "token", privacy: true, sealKeyId: nil)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        let atLaunch = harness.deviceRegistrations.count
        harness.phone.suspend()
        harness.phone.foreground()
        harness.run(for: 1)
        // Leaving and coming back report the app state (two PUTs); the server named no key: a third, the repair.
        let repaired = Array(harness.deviceRegistrations.dropFirst(atLaunch))
        #expect(repaired.count == 3)
        #expect(repaired.allSatisfy { $0.sealKey == Self.first.registration })
        let afterRepair = harness.deviceRegistrations.count
        harness.phone.suspend()
        harness.phone.foreground()
        harness.run(for: 1)
        #expect(harness.deviceRegistrations.count - afterRepair == 2, "no second repair for the same key")
        #expect(keyring.made.isEmpty)
    }

    @Test("A phone whose Keychain lost its key makes a new one and registers it (a rotation)")
    func lostKeyIsReplaced() throws {
        let keyring = InMemorySealKeyring(current: Self.first, keysToMake: [Self.second])
        let harness = PhoneHarness(sealKeys: keyring)
        harness.deviceInfo = DeviceChannelInfo(channelId: nil, mode: "token", privacy: true, sealKeyId: Self.first.keyID)
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        keyring.loseKey()
        harness.phone.suspend()
        harness.phone.foreground()
        harness.run(for: 1)
        #expect(keyring.made == [Self.second])
        #expect(harness.deviceRegistrations.last?.sealKey == Self.second.registration)
        // The person asks for a new key: made and registered at once.
        let rotating = InMemorySealKeyring(current: Self.second, keysToMake: [Self.first])
        let other = PhoneHarness(sealKeys: rotating)
        other.phone.launch(inForeground: true)
        other.run(for: 1)
        try #require(other.phone.app).rotateSealKey()
        other.run(for: 1)
        #expect(other.deviceRegistrations.last?.sealKey == Self.first.registration)
    }

    @Test("A keyring that fails is traced, and the registration goes without a key (placeholders, never words)")
    func keyringFailureIsTraced() throws {
        let keyring = InMemorySealKeyring()
        keyring.failNextCall(SealKeyringError("Keychain locked"))
        let harness = PhoneHarness(privacy: true, sealKeys: keyring)
        harness.phone.launch(inForeground: true)
        let trace = harness.phone.takeTrace()
        harness.run(for: 1)
        #expect(trace.contains { $0.event == .sealKeyFailed(SealKeyringError("Keychain locked")) })
        #expect(harness.deviceRegistrations.first?.sealKey == nil)
        #expect(harness.deviceRegistrations.first?.privacy == true)
    }

    @Test("The in-memory keyring fails loudly on a call nobody scripted")
    func fakeFailsLoudly() {
        let keyring = InMemorySealKeyring()
        #expect(throws: SealKeyringError.self) { try keyring.makeKey() }
        #expect(keyring.unexpectedCalls.count == 1)
    }
}
