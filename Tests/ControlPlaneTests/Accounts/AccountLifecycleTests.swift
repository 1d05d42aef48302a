import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// `lfg accounts create|list|revoke` over the API (contract 8.4), and what each account's token reaches.
@Suite(.timeLimit(.minutes(1))) struct AccountLifecycleTests {
    @Test("The owner's token makes an account; its token is shown once, and only its hash is kept")
    func create() async throws {
        let harness = try await AccountHarness()
        let token = try await harness.createAccount("ana")
        #expect(CredentialText.account.parse(token) != nil)
        let listed = await harness.call("GET", APIPaths.accounts, token: AccountHarness.ownerToken)
        let accounts = try #require(listed.json["accounts"] as? [[String: Any]])
        #expect(accounts.count == 1)
        #expect(accounts.first?["name"] as? String == "ana")
        let secret = String(token.split(separator: ".")[2])
        #expect(!listed.text.contains(secret))
        let stored = try #require(try await harness.store.accounts().first)
        #expect(stored.secretHash == SHA256.hex(secret))
        #expect(!"\(stored)".contains(secret))
        #expect(await harness.call("GET", "/api/sessions", token: token).status == 200)
    }

    @Test("A bad, reserved or taken name is a 400 naming the field, and makes nothing")
    func badNames() async throws {
        let harness = try await AccountHarness()
        _ = try await harness.createAccount("ana")
        for name in ["", "Ana", "a b", "-x", "owner", "ana", String(repeating: "a", count: 41)] {
            let reply = await harness.call(
                "POST", APIPaths.accounts, #"{"name":"\#(name)"}"#, token: AccountHarness.ownerToken)
            #expect(reply.status == 400, "name '\(name)'")
            #expect(reply.field == "name", "name '\(name)'")
        }
        #expect(try await harness.store.accounts().map(\.id) == ["ana"])
    }

    @Test("Accounts are managed with the install owner's token only")
    func ownerOnly() async throws {
        let harness = try await AccountHarness()
        let ana = try await harness.createAccount("ana")
        let phone = try await harness.pairPhone("phone", token: ana)
        for token in [ana, phone] {
            #expect(await harness.call("GET", APIPaths.accounts, token: token).status == 403)
            #expect(await harness.call("POST", APIPaths.accounts, #"{"name":"eve"}"#, token: token).status == 403)
            #expect(await harness.call("DELETE", APIPaths.accounts + "/ana", token: token).status == 403)
        }
        #expect(await harness.call("GET", APIPaths.accounts, token: nil).status == 401)
        #expect(await harness.call("GET", APIPaths.accounts, token: "lfga.0123456789abcdef." + hexA).status == 401)
        #expect(try await harness.store.accounts().map(\.id) == ["ana"])
        // Nor the dashboard or login links: they are the install owner's.
        #expect(await harness.call("POST", APIPaths.loginLinks, token: ana).status == 403)
        #expect(await harness.call("GET", "/metrics", token: ana).status == 403)
        #expect(await harness.call("GET", "/metrics", token: AccountHarness.ownerToken).status == 200)
    }

    @Test("A revoked account's token and phones get 401 at once; its rows are kept and its name stays taken")
    func revoke() async throws {
        let harness = try await AccountHarness()
        let ana = try await harness.createAccount("ana")
        let phone = try await harness.pairPhone("phone", token: ana)
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build"}"#, token: ana)
        let revoked = await harness.call("DELETE", APIPaths.accounts + "/ana", token: AccountHarness.ownerToken)
        #expect(revoked.status == 200)
        #expect(revoked.json["revokedAt"] as? Double == harness.time.now)
        #expect(await harness.call("GET", "/api/sessions", token: ana).status == 401)
        #expect(await harness.call("GET", "/api/sessions", token: phone).status == 401)
        #expect(try await harness.store.scoped(to: "ana").load().sessions.keys.sorted() == ["s1"])
        let again = await harness.call("POST", APIPaths.accounts, #"{"name":"ana"}"#, token: AccountHarness.ownerToken)
        #expect(again.status == 400)
        #expect(
            await harness.call("DELETE", APIPaths.accounts + "/nobody", token: AccountHarness.ownerToken).status == 404)
        // Revoking twice changes nothing.
        let twice = await harness.call("DELETE", APIPaths.accounts + "/ana", token: AccountHarness.ownerToken)
        #expect(twice.json["revokedAt"] as? Double == revoked.json["revokedAt"] as? Double)
    }

    @Test("The owner's token sees none of an account's rows, and the account none of the owner's")
    func ownerAndAccountApart() async throws {
        let harness = try await AccountHarness()
        let ana = try await harness.createAccount("ana")
        await harness.call("PUT", "/api/sessions/mine", #"{"title":"Owner's"}"#, token: AccountHarness.ownerToken)
        await harness.call("PUT", "/api/sessions/hers", #"{"title":"Ana's"}"#, token: ana)
        let ownerSees =
            await harness.call("GET", "/api/sessions", token: AccountHarness.ownerToken).json["sessions"]
            as? [[String: Any]]
        let anaSees = await harness.call("GET", "/api/sessions", token: ana).json["sessions"] as? [[String: Any]]
        #expect(ownerSees?.compactMap { $0["sid"] as? String } == ["mine"])
        #expect(anaSees?.compactMap { $0["sid"] as? String } == ["hers"])
        #expect(await harness.call("GET", "/api/sessions/mine", token: ana).status != 200)
    }

    @Test("Each account's watcher pushes only to its own devices, even under the same device id")
    func pushesStayInTheirAccount() async throws {
        let harness = try await AccountHarness()
        let ana = try await harness.createAccount("ana")
        let bob = try await harness.createAccount("bob")
        for (token, startHex) in [(ana, hexB), (bob, hex("c"))] {
            await harness.call("PUT", "/api/devices/phone", #"{"env":"sandbox","apnsToken":"\#(hexA)"}"#, token: token)
            await harness.call(
                "POST", "/api/push/live-activity/start-token",
                #"{"deviceId":"phone","env":"sandbox","token":"\#(startHex)"}"#,
                token: token)
        }
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true}"#, token: ana)
        for name: AccountID in [.owner, "ana", "bob"] { try await harness.service(name).tick() }
        let afterAna = harness.gateway.delivered.flatMap(\.targets).map(\.hex)
        #expect(!afterAna.isEmpty)
        #expect(afterAna.allSatisfy { $0 == hexB }, "pushes for Ana's session went to \(afterAna)")
        await harness.call("PUT", "/api/sessions/s9", #"{"title":"Deploy","busy":true}"#, token: bob)
        for name: AccountID in [.owner, "ana", "bob"] { try await harness.service(name).tick() }
        let bobs = harness.gateway.delivered.dropFirst(harness.gateway.delivered.count - 1).flatMap(\.targets).map(
            \.hex)
        #expect(bobs == [hex("c")])
        for batch in harness.gateway.delivered {
            let titles = batch.contentState.rows.map(\.title)
            let hexes = Set(batch.targets.map(\.hex))
            #expect(
                hexes == [hexB] ? !titles.contains("Deploy") : !titles.contains("Build"),
                "batch mixed accounts: \(titles) -> \(hexes)")
        }
    }
}

/// Where accounts cannot be served (a shared PostgreSQL database, whose instances lease only the owner's
/// devices), none is made and none is opened: refused with the reason, never served half-way.
@Suite(.timeLimit(.minutes(1))) struct AccountsUnavailableTests {
    @Test("With accounts unavailable, create is refused with the reason, and stored ones are listed but not served")
    func refusedWithTheReason() async throws {
        let store = InMemoryStore()
        let (token, record) = AccountRecord.make("ana", now: 1)
        try await store.putAccount(record)
        let owner = ControlPlaneService(.init(
            store: store, gateway: ScriptedPushGateway.answeringEverything(), decisionLog: InMemoryDecisionLog()))
        try await owner.start()
        let accounts = AccountDirectory(owner: owner, store: store, unavailable: "not on a shared database") { _, store in
            ControlPlaneService(.init(
                store: store, gateway: ScriptedPushGateway.answeringEverything(), decisionLog: InMemoryDecisionLog()))
        }
        try await accounts.start()
        #expect(accounts.listings.map { $0.name } == ["ana"])
        #expect(accounts.tenant("ana") == nil)
        let router = APIRouter(accounts: accounts, authenticator: Authenticator(token: ServiceHarness.token, loginCode: nil))
        func call(_ method: String, _ path: String, _ body: String = "", token: String) async -> HTTPResponse {
            await router.respond(to: HTTPRequest(
                method: method, path: path, headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                body: Data(body.utf8)))
        }
        #expect(await call("GET", "/api/sessions", token: token).status == 401)
        let refused = await call("POST", APIPaths.accounts, #"{"name":"bob"}"#, token: ServiceHarness.token)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.bodyData ?? Data(), as: UTF8.self).contains("not on a shared database"))
        #expect(try await store.accounts().map(\.id) == ["ana"])
    }
}

/// The directory's run loop: `lfg serve` runs it beside the owner's service.
@Suite(.timeLimit(.minutes(1))) struct AccountRunTests {
    @Test("A running directory runs an account made meanwhile (its watcher pushes) until it is cancelled")
    func runsAccountsMadeWhileRunning() async throws {
        let harness = try await AccountHarness()
        let running = Task { await harness.accounts.run() }
        let ana = try await harness.createAccount("ana")
        await harness.call("PUT", "/api/devices/phone", #"{"env":"sandbox","apnsToken":"\#(hexA)"}"#, token: ana)
        await harness.call(
            "POST", "/api/push/live-activity/start-token", #"{"deviceId":"phone","env":"sandbox","token":"\#(hexB)"}"#,
            token: ana)
        await harness.call("PUT", "/api/sessions/s1", #"{"title":"Build","busy":true}"#, token: ana)
        // Nobody ticks by hand: only Ana's service, run by the directory, can push.
        try await harness.gateway.waitForDeliveries(1)
        #expect(harness.gateway.delivered.flatMap(\.targets).map(\.hex) == [hexB])
        running.cancel()
        await running.value
    }
}
