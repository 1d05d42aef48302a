import APNs
import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import HTTPClient
import HTTPServer
import Testing

/// The app's live connection against the real control plane over loopback HTTP: the list follows
/// `GET /api/events` with no polling, and the status says so when the server goes away.
@Suite struct LiveConnectionOverHTTPTests {
    static let bearer = "live-connection-token-0123456789"

    /// A real server (routes, event hub, in-memory store) on a free loopback port.
    struct LiveServer {
        let service: ControlPlaneService
        let server: HTTPServer
        let baseURL: String
        let running: Task<Void, Never>

        static func start() async throws -> LiveServer {
            let service = ControlPlaneService(.init(
                store: InMemoryStore(), gateway: ScriptedPushGateway.answeringEverything(status: 200),
                decisionLog: InMemoryDecisionLog(), wallClock: WallClock(now: { 1_764_400_000 })))
            try await service.start()
            let server = HTTPServer(
                configuration: .init(port: 0),
                handler: APIRouter(service: service, authenticator: Authenticator(token: bearer, loginCode: nil)))
            let port = try server.start()
            let running = Task<Void, Never> {
                do { try await server.run() } catch { Issue.record("the server stopped with \(error)") }
            }
            return LiveServer(service: service, server: server, baseURL: "http://127.0.0.1:\(port)", running: running)
        }

        /// Stops the server (its shutdown ends every event stream, and from its start every request is
        /// refused), then the service's streams. Ending the streams first would let the app's fallback
        /// fetch reach a server still serving.
        func stop() async {
            running.cancel()
            await running.value
            service.events.finishAll()
        }
    }

    @Test("The list follows the server's events while foregrounded, and says 'unreachable' when the server goes away")
    @MainActor
    func listFollowsEventsAndUnreachableIsShown() async throws {
        let live = try await LiveServer.start()
        let http = HTTPClient()
        let profile = ServerProfile(name: "home", baseURL: live.baseURL, bearerToken: Self.bearer)
        let clock = VirtualClock()
        let host = InMemoryActivityHost(clock: clock.wallClock)
        host.appLaunched(inForeground: true)
        let fleet = FleetAppDriver(
            configuration: AppConfiguration(
                deviceID: "phone-1", environment: .sandbox, servers: [profile], defaultServerName: "home"),
            host: host, alerts: InMemoryAlertCenter(), client: HTTPClientControlPlaneClient(client: http),
            storage: InMemoryKeyValueStorage(),
            phoneClock: clock.wallClock, sleeper: ContinuousClock())
        // No timer may fire during the test: every change below must come from the stream or its end.
        var policy = LiveConnectionPolicy()
        policy.reconnectFirst = 3_600
        policy.fallbackFetchInterval = 3_600
        policy.silenceLimit = 3_600
        let connection = LiveConnectionDriver(
            fleet: fleet, transport: HTTPClientEventStream(client: http), phoneClock: clock.wallClock,
            sleeper: ContinuousClock(), policy: policy)
        let statuses = Inbox<ConnectionStatus>()
        connection.onStatusChange = { statuses.yield($0) }
        let lists = Inbox<[SessionID]>()
        fleet.onChange = { lists.yield(fleet.engine.model.sessions.map(\.sid)) }
        defer {
            connection.stop()
            fleet.stop()
        }

        connection.foregrounded()
        #expect(try await statuses.next("connecting") == .connecting)
        guard case .live = try await statuses.next("live") else { Issue.record("the stream did not open"); return }
        try await bounded("the first fetch") { await fleet.waitForCalls() }

        // A session the server learns of now reaches the list only through the event stream.
        let report = SessionReport(title: "Refactor", host: "mac", cwd: "/work", busy: true)
        try await send(http, "PUT", live.baseURL + "/api/sessions/a", body: try JSONEncoder().encode(report))
        try await waitFor(lists, ["a"])
        #expect(fleet.engine.model.sessions.first?.report.title == "Refactor")
        try await send(http, "DELETE", live.baseURL + "/api/sessions/a")
        try await waitFor(lists, [])

        // The server goes away: the stream ends, the fallback fetch is refused, and the status says so.
        await live.stop()
        guard case .reconnecting = try await statuses.next("reconnecting") else { Issue.record("no reconnecting"); return }
        guard case .unreachable(_, let lastContact, let reason) = try await statuses.next("unreachable") else {
            Issue.record("the status never said unreachable")
            return
        }
        #expect(lastContact != nil)
        // Refused outright, or (racing the shutdown) the server's own 503 "shutting down": both honest.
        #expect(reason.contains("could not be reached") || reason.contains("503"), "\(reason)")
        #expect(!connection.connection.status.isLive)
    }

    func send(_ http: HTTPClient, _ method: String, _ url: String, body: Data = Data()) async throws {
        var headers = [(name: "Authorization", value: "Bearer \(Self.bearer)")]
        if !body.isEmpty { headers.append((name: "Content-Type", value: "application/json")) }
        let response = try await http.send(HTTPClientRequest(method: method, url: url, headers: headers, body: body))
        #expect((200..<300).contains(response.status), "\(method) \(url) answered \(response.status): \(response.text)")
    }

    /// Waits until the list shows exactly `sids` (earlier snapshots are skipped).
    func waitFor(_ lists: Inbox<[SessionID]>, _ sids: [SessionID]) async throws {
        while try await lists.next("the list to show \(sids)") != sids {}
    }
}
