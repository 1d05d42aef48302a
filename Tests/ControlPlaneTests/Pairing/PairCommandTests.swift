import ControlPlane
import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import QRCode
import QRCodeTesting
import Testing

/// `lfg serve` prints a pairing QR code at start and `lfg pair` a fresh one: both, read back from the
/// terminal text and decoded by zbarimg, are links the app pairs with; `lfg pair list|revoke` manage them.
@Suite(.serialized) struct PairCommandTests {
    static let token = "pair-test-token"

    @Test("serve's terminal QR scans to its link; the app pairs with it; lfg pair prints a fresh one; revoke gives 401",
          .timeLimit(.minutes(1)))
    func terminalCodePairs() async throws {
        let home = try makeTemporaryDirectory()
        let port = freePort()
        let publicURL = "http://127.0.0.1:\(port)"
        let environment = [
            "LFG_HOME": home, "LFG_AUTH_TOKEN": Self.token, "LFG_TICK_MS": "50", "LFG_PUBLIC_URL": publicURL,
        ]
        let server = try await ServeProcess.start(port: port, environment: environment, readyLine: "lfg://pair?")
        defer { server.stop(SIGTERM) }
        let printed = server.printed
        let shown = try ZBarReader.terminalCode(in: printed, before: "pair a phone:", colors: true)
        let link = try await ZBarReader.decode(shown)
        #expect(printed.contains(link + "\n"))
        #expect(try PairingLink(parsing: link).server == publicURL)

        let app = PairingClient(transport: CurlTransport())
        let store = InMemoryCredentialStore()
        let phone = try await app.pair(link, name: "Ana's iPhone", deviceID: "phone-1", store: store)

        let fresh = try ServeProcess.runToExit(["pair", "--port", "\(port)"], environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(fresh.status == 0, "\(fresh.output)")
        let freshLink = try await ZBarReader.decode(try ZBarReader.terminalCode(in: fresh.output, before: "pair a phone:", colors: false))
        #expect(freshLink != link && fresh.output.contains(freshLink))
        _ = try await app.pair(freshLink, name: "iPad", deviceID: "pad-1", store: store)

        let list = try ServeProcess.runToExit(["pair", "list", "--port", "\(port)"], environment: environment)
        #expect(list.status == 0 && list.output.contains("Ana's iPhone") && list.output.contains("iPad"), "\(list.output)")
        let id = try #require(DeviceCredentialText.parse(phone.bearerToken)?.id)
        let revoke = try ServeProcess.runToExit(["pair", "revoke", id.rawValue, "--port", "\(port)"], environment: environment)
        #expect(revoke.status == 0, "\(revoke.output)")
        let transport = CurlTransport()
        let after = try await transport.send(
            .init(method: "GET", path: "/api/sessions", headers: ["Authorization": "Bearer \(phone.bearerToken)"]), to: publicURL)
        #expect(after.status == 401)
    }
}
