import APNs
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// A service whose question pushes go to a recording APNs sender, with a manual wall clock and a
/// manual duration clock (for long-poll timeouts), behind the router.
struct QuestionHarness {
    static let token = ServiceHarness.token
    let store: any Store
    let sender: any PushSender
    let log = InMemoryDecisionLog()
    let time: ManualTime
    let clock = ManualClock()
    let service: ControlPlaneService
    let router: APIRouter

    init(store: any Store = InMemoryStore(), sender: any PushSender = RecordingPushSender(), time: ManualTime = ManualTime())
        async throws
    {
        self.store = store
        self.sender = sender
        self.time = time
        service = ControlPlaneService(.init(
            store: store, gateway: ScriptedPushGateway(), decisionLog: log, wallClock: time.wallClock, clock: clock,
            questionNotifier: APNsQuestionNotifier(sender: sender, bundleID: BundleID("com.example.lfg"))))
        try await service.start()
        router = APIRouter(service: service, authenticator: Authenticator(token: Self.token, loginCode: nil))
    }

    @discardableResult
    func call(_ method: String, _ path: String, _ body: String? = nil, query: [String: String] = [:]) async
        -> ServiceHarness.Reply
    {
        let request = HTTPRequest(
            method: method, path: path, query: query,
            headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"],
            body: Data((body ?? "").utf8))
        let response = await router.respond(to: request)
        return ServiceHarness.Reply(status: response.status, response: response)
    }

    /// A session waiting on a permission prompt with id `id`.
    @discardableResult
    func ask(_ sid: String, id: String, kind: String = "permission", options: [String]? = nil) async -> ServiceHarness.Reply {
        let optionsJSON = options.map { ", \"options\": [" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]" } ?? ""
        return await call(
            "PUT", "/api/sessions/\(sid)",
            #"{"title":"Build","busy":true,"prompt":{"id":"\#(id)","kind":"\#(kind)","text":"Bash: make"\#(optionsJSON)}}"#)
    }

    func registerPhone(_ deviceId: String, token hex: String) async {
        let reply = await call("PUT", "/api/devices/\(deviceId)", #"{"env":"sandbox","apnsToken":"\#(hex)"}"#)
        #expect(reply.status == 200)
    }

    /// The requests the sender got so far, in order.
    var requests: [PushRequest] { (sender as? RecordingPushSender)?.requests.withLock { $0 } ?? [] }
}

extension PushRequest {
    /// The body as a JSON object (for checks).
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(payload.bytes))) as? [String: Any] ?? [:] }
    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}
