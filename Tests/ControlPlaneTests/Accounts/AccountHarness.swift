import AsyncTesting
import ControlPlane
import ControlPlaneTesting
import FleetCore
import Foundation
import HTTPTypes
import Synchronization

/// The control plane with accounts (contract 8.4): the owner's service and one per account over one store,
/// one scripted APNs and one manual clock, behind the router, as `lfg serve` wires them.
struct AccountHarness {
    static let ownerToken = ServiceHarness.token
    let store: any AccountStore
    /// Every push of every account goes through this one gateway, as in `lfg serve`.
    let gateway = ScriptedPushGateway.answeringEverything(status: 200)
    let time = ManualTime()
    let owner: ControlPlaneService
    let accounts: AccountDirectory
    let router: APIRouter
    /// The instance's lease rounds, when `coordinator` was given (one instance of several on a database).
    let director: LeaseDirector?

    /// - Parameter coordinator: coordinates this instance with others on the store's database (one lease
    ///   round is run before anything, so the services may push for the devices they hold).
    init(store: any AccountStore = InMemoryStore(), coordinator: (any FleetCoordinator)? = nil) async throws {
        self.store = store
        let (gateway, time) = (gateway, time)
        let leases = InstanceLeases()
        let make = { @Sendable (account: AccountID, store: any Store) in
            var dependencies = ControlPlaneService.Dependencies(
                store: store, gateway: gateway, decisionLog: InMemoryDecisionLog(), wallClock: time.wallClock)
            dependencies.coordinator = coordinator.map { AccountCoordinator(account: account, shared: $0, leases: leases) }
            dependencies.leaseTTL = Self.leaseTTL
            return ControlPlaneService(dependencies)
        }
        owner = make(.owner, store.scoped(to: .owner))
        try await owner.start()
        let accounts = AccountDirectory(
            owner: owner, store: store, wallClock: time.wallClock) { account, store in make(account, store) }
        self.accounts = accounts
        try await accounts.start()
        director = coordinator.map {
            LeaseDirector(
                coordinator: $0, leases: leases, accounts: accounts, ttl: Self.leaseTTL, interval: .seconds(10),
                wallClock: time.wallClock)
        }
        await director?.round()
        router = APIRouter(
            accounts: accounts, authenticator: Authenticator(token: Self.ownerToken, loginCode: nil, now: { time.now }))
    }

    @discardableResult
    func call(
        _ method: String, _ path: String, _ body: String? = nil, token: String?, query: [String: String] = [:]
    ) async -> ServiceHarness.Reply {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let body, !body.isEmpty { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: Data((body ?? "").utf8))
        let response = await router.respond(to: request)
        return ServiceHarness.Reply(status: response.status, response: response)
    }

    /// Makes account `name` with the owner's token, as `lfg accounts create` does; its token.
    func createAccount(_ name: String) async throws -> String {
        let reply = await call("POST", APIPaths.accounts, #"{"name":"\#(name)"}"#, token: Self.ownerToken)
        guard reply.status == 200, let token = reply.json["token"] as? String else {
            throw AccountTestError("POST /api/accounts answered \(reply.status): \(reply.text)")
        }
        return token
    }

    /// Pairs a phone into the account whose token is `token`; the phone's credential.
    func pairPhone(_ deviceId: String, token: String) async throws -> String {
        let code = await call("POST", APIPaths.pairingCodes, token: token).json["code"] as? String ?? ""
        let reply = await call(
            "POST", APIPaths.pair, #"{"code":"\#(code)","name":"phone \#(deviceId)","deviceId":"\#(deviceId)"}"#,
            token: nil)
        guard reply.status == 200, let credential = reply.json["credential"] as? String else {
            throw AccountTestError("POST /api/pair answered \(reply.status): \(reply.text)")
        }
        return credential
    }

    /// A lease long enough for any test on the manual clock (leases are trusted for 80 % of it).
    static let leaseTTL = 600.0

    /// The service of account `name`.
    func service(_ name: AccountID) throws -> ControlPlaneService {
        guard let tenant = accounts.tenant(name) else { throw AccountTestError("no live account \(name)") }
        return tenant.service
    }
}

struct AccountTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
