import ControlPlane
import Dashboard
import FleetCore
import Foundation
import HTTPTypes
import QRCode
import Testing

/// The dashboard shows the same pairing code the terminal printed, and only to the owner.
@Suite struct DashboardPairingTests {
    @Test("the dashboard's QR code is the terminal's code until it is used; a paired device cannot open it")
    func dashboardShowsTheSameCode() async throws {
        let harness = try await ServiceHarness()
        let service = harness.service
        let router = APIRouter(
            service: service, authenticator: Authenticator(token: ServiceHarness.token, loginCode: nil),
            dashboard: DashboardRoutes(source: service, now: { 0 }, pairingCode: { service.currentPairingCode() }))
        let printed = service.makePairingCode()  // what lfg serve prints at start

        func panel(_ bearer: String) async -> HTTPResponse {
            await router.respond(to: HTTPRequest(method: "GET", path: "/dashboard/pairing", headers: ["Authorization": "Bearer \(bearer)"]))
        }
        let shown = try JSONSerialization.jsonObject(with: try #require(await panel(ServiceHarness.token).bodyData)) as? [String: Any]
        #expect(shown?["link"] as? String == printed.link)
        let svg = try #require(shown?["svg"] as? String)
        let dark = try QRMatrix(encoding: printed.link).modules.filter { $0 }.count
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == dark)

        let device = try #require(try await service.pair(PairRequest(code: printed.code, name: "phone")))
        #expect(await panel(device.credential).status == 403)
        let next = try JSONSerialization.jsonObject(with: try #require(await panel(ServiceHarness.token).bodyData)) as? [String: Any]
        #expect(next?["link"] as? String != printed.link)  // used: the dashboard shows a new one
        let page = await router.respond(to: HTTPRequest(method: "GET", path: "/", headers: ["Authorization": "Bearer \(ServiceHarness.token)"]))
        #expect(String(decoding: page.bodyData ?? Data(), as: UTF8.self).contains("id=\"pairing-qr\""))
    }
}
