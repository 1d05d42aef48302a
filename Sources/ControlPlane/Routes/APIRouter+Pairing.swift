import FleetCore
import Foundation
import HTTPTypes

/// Paths the command line and the app call for pairing.
extension APIPaths {
    /// `POST` (no auth): trade a pairing code for a device credential; `DELETE` (the device): revoke your own.
    public static let pair = "/api/pair"
    /// `POST` (owner): a new one-time pairing code -> ``PairingGrant``.
    public static let pairingCodes = "/api/pairing-codes"
    /// `GET` (owner): the newest live code (the one the terminal shows), or a new one.
    public static let currentPairingCode = "/api/pairing-codes/current"
    /// `GET` (owner): every paired device; `DELETE .../{credentialId}` revokes one.
    public static let pairedDevices = "/api/paired-devices"
}

extension APIRouter {
    /// `POST /api/pair`: open to anyone holding a live code; `DELETE /api/pair`: the calling device
    /// revokes its own credential (the app's "sign out").
    func pairRoute(_ request: HTTPRequest) async -> HTTPResponse {
        switch request.method {
        case "POST":
            if let refusal = WriteRule.refusal(request, .none) { return refusal }
            return await Self.with(PairRequest.self, request) { body throws(ServiceError) in
                // The code says whose: the device joins the account that made the code.
                guard let tenant = accounts.tenant(holdingCode: body.code), let answer = try await tenant.service.pair(body) else {
                    return .error(
                        401, "this pairing code is wrong, expired or was already used; run lfg pair for a new one",
                        field: "code")
                }
                return .json(answer)
            }
        case "DELETE":
            guard case .device(let record, let account) = authenticator.authorize(request, accounts: accounts),
                let tenant = accounts.tenant(account)
            else {
                return .error(401, "send the device's own credential (Authorization: Bearer lfgd....) to sign it out")
            }
            return await Self.answer { () async throws(ServiceError) in
                .json(PairedDeviceListing(try await tenant.service.revokeCredential(record.id)))
            }
        default:
            return Self.methodNotAllowed(["POST", "DELETE"])
        }
    }

    /// The owner's pairing routes (a device credential never reaches them: ``DeviceAccess``).
    static func pairingRoutes(_ service: ControlPlaneService) -> [Route] {
        struct Listing: Encodable { var devices: [PairedDeviceListing] }
        return [
            Route("POST", APIPaths.pairingCodes) { _, _ in .json(service.makePairingCode()) },
            Route("GET", APIPaths.currentPairingCode) { _, _ in .json(service.currentPairingCode()) },
            Route("GET", APIPaths.pairedDevices) { _, _ in
                .json(Listing(devices: service.pairing.credentials.map(PairedDeviceListing.init)))
            },
            Route("DELETE", APIPaths.pairedDevices + "/{credentialId}") { _, parameters in
                await answer { () async throws(ServiceError) in
                    .json(PairedDeviceListing(try await service.revokeCredential(DeviceCredentialID(parameters[0]))))
                }
            },
        ]
    }
}
