import ControlPlane
import ControlPlaneTesting
import APNs
import FleetCore
import Foundation
import HTTPTypes
import Synchronization

/// A wall clock that moves only when the test says so.
final class ManualTime: Sendable {
    private let value: Mutex<UnixTime>
    init(_ start: UnixTime = 1_000) { value = Mutex(start) }
    var now: UnixTime { value.withLock { $0 } }
    func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
    var wallClock: WallClock { WallClock { self.now } }
}

/// A service with an in-memory store, a scripted APNs and a manual clock, behind the router.
struct ServiceHarness {
    static let token = "test-token-0123456789"
    let store: InMemoryStore
    /// Every token answers 200 unless a test scripts it: the harness serves tests about routes, not APNs answers.
    let gateway = ScriptedPushGateway.answeringEverything(status: 200)
    let log = InMemoryDecisionLog()
    let time = ManualTime()
    let service: ControlPlaneService
    let router: APIRouter

    /// - Parameter decisionLog: where the service logs instead of ``log`` (a test of log failures).
    init(
        store: InMemoryStore = InMemoryStore(), guards: GuardSet = .all, gate: PushGate? = nil, loginCode: String? = nil,
        decisionLog: (any DecisionLogSink)? = nil
    ) async throws {
        self.store = store
        service = ControlPlaneService(
            .init(
                store: store, gateway: gateway, decisionLog: decisionLog ?? log, wallClock: time.wallClock, guards: guards),
            gate: gate)
        try await service.start()
        router = APIRouter(service: service, authenticator: Authenticator(token: Self.token, loginCode: loginCode))
    }

    struct Reply {
        var status: Int
        var response: HTTPResponse
        var json: [String: Any] {
            guard let data = response.bodyData else { return [:] }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        }
        var text: String { response.bodyData.map { String(decoding: $0, as: UTF8.self) } ?? "" }
        var field: String? { json["field"] as? String }
    }

    @discardableResult
    func call(
        _ method: String, _ path: String, _ body: String? = nil, token: String? = ServiceHarness.token,
        headers: [String: String] = [:], query: [String: String] = [:]
    ) async -> Reply {
        var allHeaders = headers
        if let token { allHeaders["Authorization"] = "Bearer \(token)" }
        if let body, !body.isEmpty, allHeaders["Content-Type"] == nil { allHeaders["Content-Type"] = "application/json" }
        let request = HTTPRequest(
            method: method, path: path, query: query, headers: allHeaders, body: Data((body ?? "").utf8))
        let response = await router.respond(to: request)
        return Reply(status: response.status, response: response)
    }

    /// Everything an outside observer can read, to show a request changed nothing.
    func observable() async -> String {
        let sessions = await call("GET", "/api/sessions").text
        let state = await call("GET", "/api/push/live-activity/state").text
        let tokens = await call("GET", "/api/push/live-activity/tokens").text
        return sessions + state + tokens + "\(store.commitCount)"
    }
}

let hexA = String(repeating: "a", count: 64)
let hexB = String(repeating: "b", count: 64)
