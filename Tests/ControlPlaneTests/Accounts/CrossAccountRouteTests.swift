import AsyncTesting
import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import StorePostgres
import Testing

/// Contract 8.4: a token sees and changes only its own account's data. Every route an account reaches is
/// called with another account's ids: they are 404s, its lists are empty, and the other account's rows
/// (the store's own view of them) are exactly as before. The route list comes from the router, so a new
/// route without a case here fails ``everyRouteHasACase``.
@Suite(.timeLimit(.minutes(1))) struct CrossAccountRouteTests {
    /// Ana's account with one of everything; Bob's, empty, doing the calling.
    struct World {
        let harness: AccountHarness
        let ana: String
        let bob: String
        let anaPhone: String
        let anaPhoneCredentialId: String
        let anaCode: String
        /// Ana's session s1, asking question q1.
        static let anaSession =
            #"{"title":"Build","busy":true,"prompt":{"id":"q1","kind":"permission","text":"Bash: make"}}"#

        /// - Parameter coordinator: one instance of several on the store's PostgreSQL database.
        static func make(store: any AccountStore = InMemoryStore(), coordinator: (any FleetCoordinator)? = nil)
            async throws -> World
        {
            let harness = try await AccountHarness(store: store, coordinator: coordinator)
            let ana = try await harness.createAccount("ana")
            let bob = try await harness.createAccount("bob")
            let prompt = Self.anaSession
            for (method, path, body) in [
                ("PUT", "/api/sessions/s1", prompt), ("PUT", "/api/hosts/mac", #"{"ttlSeconds":30}"#),
                ("PUT", "/api/devices/phone", #"{"env":"sandbox","apnsToken":"\#(hexA)"}"#),
                (
                    "POST", "/api/push/live-activity/start-token",
                    #"{"deviceId":"phone","env":"sandbox","token":"\#(hexB)"}"#
                ),
            ] {
                let reply = await harness.call(method, path, body, token: ana)
                guard reply.status == 200 else {
                    throw AccountTestError("\(method) \(path) answered \(reply.status): \(reply.text)")
                }
            }
            let anaPhone = try await harness.pairPhone("phone", token: ana)
            let anaCode =
                await harness.call("GET", APIPaths.currentPairingCode, token: ana).json["code"] as? String ?? ""
            // A card and its log lines: Ana's watcher push-starts her phone.
            try await harness.service("ana").tick()
            return World(
                harness: harness, ana: ana, bob: bob, anaPhone: anaPhone,
                anaPhoneCredentialId: String(anaPhone.split(separator: ".")[1]), anaCode: anaCode)
        }

        @discardableResult
        func bob(_ method: String, _ path: String, _ body: String? = nil, query: [String: String] = [:]) async
            -> ServiceHarness.Reply
        {
            await harness.call(method, path, body, token: bob, query: query)
        }

        /// Everything stored for Ana: what no call of Bob's may change.
        func anaRows() async throws -> String {
            let contents = try await harness.store.scoped(to: "ana").load()
            let history = try await harness.store.scoped(to: "ana").history(deviceId: nil, limit: 100)
            return "\(contents)|\(history)"
        }
    }

    typealias Case = @Sendable (World) async throws -> Void

    static func list(_ key: String, _ path: String, query: [String: String] = [:]) -> Case {
        { world in
            let reply = await world.bob("GET", path, query: query)
            #expect(reply.status == 200, "GET \(path)")
            #expect(
                (reply.json[key] as? [Any])?.isEmpty == true,
                "GET \(path) lists another account's \(key): \(reply.text)")
        }
    }

    static func notFound(_ method: String, _ path: String, _ body: String? = nil) -> Case {
        { world in
            let reply = await world.bob(method, path, body)
            #expect(reply.status == 404, "\(method) \(path) answered \(reply.status): \(reply.text)")
        }
    }

    /// An upsert with Ana's id makes Bob's own row (Ana's untouched, checked for every case).
    static func ownCopy(_ method: String, _ path: String, _ body: String, reading: String, _ key: String) -> Case {
        { world in
            #expect(await world.bob(method, path, body).status == 200, "\(method) \(path)")
            let listed = await world.bob("GET", reading).json[key] as? [Any]
            #expect(listed?.count == 1, "Bob's \(key) after \(method) \(path)")
        }
    }

    static let cases: [String: Case] = [
        "GET /api/sessions": list("sessions", "/api/sessions"),
        "PUT /api/sessions/{sid}": ownCopy(
            "PUT", "/api/sessions/s1", #"{"title":"Bob's"}"#, reading: "/api/sessions", "sessions"),
        "PATCH /api/sessions/{sid}": notFound("PATCH", "/api/sessions/s1", #"{"title":"x"}"#),
        "DELETE /api/sessions/{sid}": notFound("DELETE", "/api/sessions/s1"),
        "GET /api/events": { world in
            guard case .stream(let stream) = await world.bob("GET", "/api/events").response.body else {
                Issue.record("GET /api/events is not a stream")
                return
            }
            let frames = Inbox(draining: stream)
            _ = try await frames.next("the connected comment")
            // Ana reports again (the same report: her rows stay as they were), then Bob reports.
            await world.harness.call("PUT", "/api/sessions/s1", World.anaSession, token: world.ana)
            await world.bob("PUT", "/api/sessions/b1", #"{"title":"Bob's news"}"#)
            let first = String(decoding: try await frames.next("Bob's own event") ?? Data(), as: UTF8.self)
            #expect(first.contains("b1") && !first.contains("Build"), "Bob's stream carried: \(first)")
        },
        "PUT /api/hosts/{host}": { world in
            #expect(await world.bob("PUT", "/api/hosts/mac", #"{"ttlSeconds":5}"#).status == 200)
        },
        "PUT /api/devices/{deviceId}": { world in
            #expect(
                await world.bob("PUT", "/api/devices/phone", #"{"env":"sandbox","apnsToken":"\#(hex("c"))"}"#).status
                    == 200)
            #expect(await world.bob("GET", "/api/devices/phone").json["apnsToken"] as? String != hexA)
        },
        "GET /api/devices/{}": notFound("GET", "/api/devices/phone"),
        "DELETE /api/devices/{}": notFound("DELETE", "/api/devices/phone"),
        "POST /api/push/live-activity/channel-card": notFound(
            "POST", "/api/push/live-activity/channel-card",
            #"{"deviceId":"phone","channelId":"\#(channelID(1).rawValue)"}"#),
        "POST /api/push/live-activity/start-token": ownCopy(
            "POST", "/api/push/live-activity/start-token",
            #"{"deviceId":"phone","env":"sandbox","token":"\#(hex("c"))"}"#,
            reading: "/api/push/live-activity/tokens", "tokens"),
        "POST /api/push/live-activity/update-token": ownCopy(
            "POST", "/api/push/live-activity/update-token",
            #"{"deviceId":"phone","env":"sandbox","token":"\#(hex("c"))"}"#,
            reading: "/api/push/live-activity/tokens", "tokens"),
        "POST /api/push/live-activity/ended": { world in
            _ = await world.bob("POST", "/api/push/live-activity/ended", #"{"deviceId":"phone"}"#)
        },
        "GET /api/push/live-activity/state": list("devices", "/api/push/live-activity/state"),
        "GET /api/push/live-activity/tokens": list("tokens", "/api/push/live-activity/tokens"),
        "GET /api/push/live-activity/history": { world in
            try await list("history", "/api/push/live-activity/history")(world)
            try await list("history", "/api/push/live-activity/history", query: ["deviceId": "phone"])(world)
        },
        "GET /api/log": list("lines", "/api/log"),
        "GET /api/questions": list("questions", "/api/questions"),
        "GET /api/questions/{}": notFound("GET", "/api/questions/q1"),
        "POST /api/questions/{}/answer": notFound("POST", "/api/questions/q1/answer", #"{"answer":"Allow"}"#),
        "GET /api/questions/{}/wait": notFound("GET", "/api/questions/q1/wait"),
        "POST /api/pairing-codes": { world in
            let code = await world.bob("POST", APIPaths.pairingCodes).json["code"] as? String
            #expect(code != nil && code != world.anaCode)
            let bobPhone = try await world.harness.pairPhone("phone", token: world.bob)
            let seen = await world.harness.call("GET", "/api/sessions", token: bobPhone).json["sessions"] as? [Any]
            #expect(seen?.isEmpty == true, "Bob's phone sees another account's sessions")
        },
        "GET /api/pairing-codes/current": { world in
            let code = await world.bob("GET", APIPaths.currentPairingCode).json["code"] as? String
            #expect(code != nil && code != world.anaCode)
        },
        "GET /api/paired-devices": list("devices", APIPaths.pairedDevices),
        "DELETE /api/paired-devices/{credentialId}": { world in
            try await notFound("DELETE", APIPaths.pairedDevices + "/" + world.anaPhoneCredentialId)(world)
            let seen = await world.harness.call("GET", "/api/sessions", token: world.anaPhone)
            #expect(
                seen.status == 200 && (seen.json["sessions"] as? [Any])?.count == 1, "Ana's phone after Bob's revoke")
        },
    ]

    @Test("Every route an account reaches has a cross-account case here")
    func everyRouteHasACase() async throws {
        let routes = Set(try await AccountHarness().router.accountRouteTemplates)
        #expect(routes.subtracting(Self.cases.keys).sorted() == [], "routes without a cross-account case")
        #expect(Set(Self.cases.keys).subtracting(routes).sorted() == [], "cases for routes that are gone")
    }

    @Test(
        "Another account's ids are 404s, its lists are empty, and its rows never change", arguments: cases.keys.sorted()
    )
    func crossAccount(route: String) async throws {
        try await Self.check(route, in: try await World.make())
    }

    @Test(
        "On a PostgreSQL database shared by several instances, another account's ids are 404s, its lists are empty, and its rows never change",
        .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"),
        arguments: cases.keys.sorted())
    func crossAccountOnSharedPostgres(route: String) async throws {
        let store = try PostgresTestDatabase.makeStore()
        let coordinator = try PostgresCoordinator(store: store)
        defer { coordinator.shutdown() }
        try await Self.check(route, in: try await World.make(store: store, coordinator: coordinator))
    }

    static func check(_ route: String, in world: World) async throws {
        let before = try await world.anaRows()
        let check = try #require(Self.cases[route])
        try await check(world)
        #expect(try await world.anaRows() == before, "\(route) changed another account's rows")
        // And Ana still sees her own.
        let sessions = await world.harness.call("GET", "/api/sessions", token: world.ana).json["sessions"] as? [Any]
        #expect(sessions?.isEmpty == false)
    }
}
