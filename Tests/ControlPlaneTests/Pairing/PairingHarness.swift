import AsyncTesting
import ControlPlane
import FleetApp
import FleetAppTesting
import FleetCore
import Foundation
import HTTPClient
import HTTPServer
import HTTPTypes

/// The control plane on a real loopback socket, the owner calling it with the token over libcurl, and
/// the app's own ``PairingClient`` pairing over the same socket.
struct PairingHarness {
    let harness: ServiceHarness
    let baseURL: String
    let app: PairingClient
    let credentials = InMemoryCredentialStore()

    /// An HTTP reply, its JSON read loosely.
    struct Reply {
        var status: Int
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Runs `body` against a fresh service served on a free loopback port, then stops the server.
    static func run(store: InMemoryStore = InMemoryStore(), _ body: (PairingHarness) async throws -> Void) async throws {
        let harness = try await ServiceHarness(store: store)
        let server = HTTPServer(configuration: .init(port: 0), handler: harness.router)
        let port = try server.start()
        let baseURL = "http://127.0.0.1:\(port)"
        harness.service.pairing.serverURL = baseURL
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            try await body(PairingHarness(harness: harness, baseURL: baseURL, app: PairingClient(transport: CurlTransport())))
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// One request over the socket; `bearer` nil sends no Authorization.
    func call(_ method: String, _ path: String, _ body: String = "", bearer: String? = ServiceHarness.token) async throws -> Reply {
        var headers: [(name: String, value: String)] = []
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        if !body.isEmpty { headers.append(("Content-Type", "application/json")) }
        let request = HTTPClientRequest(method: method, url: baseURL + path, headers: headers, body: Data(body.utf8))
        let response = try await bounded("\(method) \(path)") { try await HTTPClient().send(request) }
        return Reply(status: response.status, body: response.body)
    }

    /// A new pairing code's link, made by the owner over HTTP (what `lfg pair` does).
    func newLink() async throws -> String {
        let reply = try await call("POST", APIPaths.pairingCodes)
        guard reply.status == 200, let link = reply.json["link"] as? String else {
            throw PairingTestError("POST /api/pairing-codes answered \(reply.status): \(reply.text)")
        }
        return link
    }

    /// The app pairs with `link`, as device `deviceID`.
    func pair(_ link: String, deviceID: DeviceID = "phone-1") async throws(PairingFailure) -> ServerProfile {
        try await app.pair(link, name: "Ana's iPhone", deviceID: deviceID, store: credentials)
    }
}

struct PairingTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The app's pairing requests over libcurl (what URLSession does on the phone).
struct CurlTransport: PairingTransport {
    func send(_ request: HTTPRequest, to baseURL: String) async throws(ControlPlaneError) -> (status: Int, body: Data) {
        let outgoing = HTTPClientRequest(
            method: request.method, url: baseURL + request.path, headers: request.headers.map { ($0.key, $0.value) },
            body: request.body)
        do {
            let response = try await bounded("pairing \(request.method) \(request.path)") {
                try await HTTPClient().send(outgoing)
            }
            return (response.status, response.body)
        } catch {
            throw .unreachable("\(error)")
        }
    }
}
