import FleetApp
import FleetCore
import Testing

/// The app tells its default server whether it is in the foreground, so the server's start waits for its card.
@Suite struct AppStateReportTests {
    static func appStates(_ harness: PhoneHarness) -> [String] {
        harness.calls.compactMap { sent in
            guard case .putDevice(_, let registration) = sent.call else { return nil }
            return "\(sent.server):\(registration.appState?.rawValue ?? "-")"
        }
    }

    @Test("The device PUT carries appState on a foreground launch, suspension and foregrounding, unchanged ones skipped")
    func devicePutCarriesAppState() {
        let harness = PhoneHarness()
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        harness.phone.suspend()
        harness.phone.foreground()
        harness.phone.foreground()
        #expect(Self.appStates(harness) == ["home:foreground", "home:background", "home:foreground"])
        let body = harness.calls.compactMap { sent -> ControlPlaneCall? in
            if case .putDevice = sent.call { sent.call } else { nil }
        }.first?.body
        #expect(body?["appState"] == .string("foreground"))
    }

    @Test("Only the default server hears appState; the others get the device PUT without it")
    func onlyDefaultServerHearsAppState() {
        let harness = PhoneHarness(guards: .without(.defaultHostOnly), servers: [PhoneHarness.home, PhoneHarness.lab])
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        harness.phone.suspend()
        #expect(Self.appStates(harness) == ["home:foreground", "lab:-", "home:background"])
    }
}
