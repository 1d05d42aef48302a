import FleetCore
import Foundation
import HTTPTypes

/// Paths the command line calls for accounts (contract 8.4).
extension APIPaths {
    /// `GET` (the install owner's token): every account; `POST {"name": ...}`: a new one and its token (shown
    /// once); `DELETE .../{name}`: revoke one.
    public static let accounts = "/api/accounts"
}

/// What `POST /api/accounts` answers: the new account and its token, the only time the token is shown.
public struct CreatedAccount: Hashable, Sendable, Codable {
    public var account: AccountListing
    public var token: String
}

extension APIRouter {
    /// `/api/accounts[/{name}]`: the install owner's bearer token only (an account's token, a paired device
    /// or a browser session cannot make or revoke accounts).
    func accountRoute(_ request: HTTPRequest, _ rest: [String], _ authorization: Authenticator.Authorization) async
        -> HTTPResponse
    {
        guard rest.count <= 1 else { return .error(404, "no such route: \(request.method) \(request.path)") }
        guard authorization == .bearer else {
            return .error(403, "accounts are managed with the install owner's token only (lfg accounts, on the server)")
        }
        struct Listing: Encodable { var accounts: [AccountListing] }
        struct Body: Decodable, Sendable { var name: String }
        switch (request.method, rest.first) {
        case ("GET", nil):
            return .json(Listing(accounts: accounts.listings))
        case ("POST", nil):
            return await Self.with(Body.self, request) { body throws(ServiceError) in
                let (token, listing) = try await accounts.create(body.name)
                return .json(CreatedAccount(account: listing, token: token))
            }
        case ("DELETE", let name?):
            if let problem = IdentifierRule.problem(name) { return .error(400, problem, field: "name") }
            return await Self.answer { () async throws(ServiceError) in .json(try await accounts.revoke(name)) }
        case (_, nil):
            return Self.methodNotAllowed(["GET", "POST"])
        default:
            return Self.methodNotAllowed(["DELETE"])
        }
    }
}
