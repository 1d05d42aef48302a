import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite struct OperationsEndpointTests {
    @Test("GET /readyz answers without auth: 200 while the store answers, 503 naming why when it does not")
    func readiness() async throws {
        let store = FailingHistoryStore()
        let service = ControlPlaneService(
            .init(store: store, gateway: ScriptedPushGateway.answeringEverything(status: 200), decisionLog: InMemoryDecisionLog()))
        let router = APIRouter(service: service, authenticator: Authenticator(token: ServiceHarness.token, loginCode: nil))
        func readyz() async throws -> (status: Int, json: [String: Any]) {
            let response = await router.respond(to: HTTPRequest(method: "GET", path: "/readyz"))
            let json = try JSONSerialization.jsonObject(with: try #require(response.bodyData)) as? [String: Any]
            return (response.status, json ?? [:])
        }
        let ready = try await readyz()
        #expect(ready.status == 200)
        #expect(ready.json["ready"] as? Bool == true)
        store.failHistory()
        let down = try await readyz()
        #expect(down.status == 503)
        #expect(down.json["ready"] as? Bool == false)
        #expect((down.json["reason"] as? String)?.contains("unreachable") == true)
    }

    @Test("GET /metrics needs the token and counts pushes by status and reason, commits and the devices driven")
    func metrics() async throws {
        let harness = try await ServiceHarness()
        #expect(await harness.call("GET", "/metrics", token: nil).status == 401)
        _ = await harness.call(
            "POST", "/api/push/live-activity/start-token", #"{"token":"\#(hexA)","env":"sandbox","deviceId":"phone"}"#)
        _ = await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true}"#)
        await harness.service.tick()
        let reply = await harness.call("GET", "/metrics")
        #expect(reply.status == 200)
        #expect(reply.response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let lines = Set(reply.text.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"lfg_pushes_total{status="200",reason=""} 1"#))
        #expect(lines.contains("lfg_devices_driven 1"))
        #expect(lines.contains("lfg_tick_seconds_count 1"))
        #expect(lines.contains("# TYPE lfg_store_commit_seconds summary"))
        #expect(lines.contains { $0.hasPrefix("lfg_store_commit_seconds_count ") && $0 != "lfg_store_commit_seconds_count 0" })
        #expect(lines.contains("lfg_pushing 1"))
        // Alone, the instance holds every device and no lease ever moves.
        #expect(lines.contains("lfg_device_leases_held 1"))
        #expect(lines.contains(#"lfg_lease_changes_total{change="gained"} 0"#))
    }

    @Test("GET /metrics counts the instance's leases when sharing a database: held now, and the moves so far")
    func leaseMetrics() async throws {
        let coordinator = ListingCoordinator { _, _ throws(StoreError) in StoredDevices() }
        let world = try await DevicesElsewhereTests.world(coordinator)
        defer { world.stop() }
        try await bounded("the first lease round to finish") {
            while world.leases.counts.held == 0 { await Task.yield() }
        }
        let lines = Set(await world.service.metricsText().split(separator: "\n").map(String.init))
        #expect(lines.contains("lfg_device_leases_held 1"))
        #expect(lines.contains(#"lfg_lease_changes_total{change="gained"} 1"#))
        #expect(lines.contains(#"lfg_lease_changes_total{change="lost"} 0"#))
        #expect(lines.contains(#"lfg_lease_changes_total{change="shed"} 0"#))
    }
}

/// An in-memory store whose reads can be made to fail (a database that went away).
final class FailingHistoryStore: Store, Sendable {
    private let base = InMemoryStore()
    private let isFailing = Mutex(false)

    func failHistory() { isFailing.withLock { $0 = true } }

    func load() async throws(StoreError) -> StoreContents { try await base.load() }
    func commit(_ writes: [StoreWrite]) async throws(StoreError) { try await base.commit(writes) }
    func history(deviceId: DeviceID?, limit: Int) async throws(StoreError) -> [CardHistoryRecord] {
        if isFailing.withLock({ $0 }) { throw StoreError(operation: "history", message: "the database is unreachable") }
        return try await base.history(deviceId: deviceId, limit: limit)
    }
}
