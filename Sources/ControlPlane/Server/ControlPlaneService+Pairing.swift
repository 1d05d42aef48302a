import FleetCore
import Foundation

/// Pairing a phone (issue 16): the owner makes one-time codes; a device trades one for its own
/// credential (`POST /api/pair`); the owner, or the device itself, revokes it.
extension ControlPlaneService {
    /// `POST /api/pairing-codes` (and `lfg serve` at start): a new one-time code and its link.
    public nonisolated func makePairingCode() -> PairingGrant {
        let now = dependencies.wallClock.now
        let made = pairing.withCodes { $0.add(String(Authenticator.makeSecret().prefix(32)), now: now) }
        return PairingGrant(made, server: pairing.serverURL, now: now)
    }

    /// `GET /api/pairing-codes/current` (the dashboard): the newest live code (the one the terminal shows),
    /// or a new one when it was used or expired.
    public nonisolated func currentPairingCode() -> PairingGrant {
        let now = dependencies.wallClock.now
        guard let current = pairing.withCodes({ $0.current(now: now) }) else { return makePairingCode() }
        return PairingGrant(current, server: pairing.serverURL, now: now)
    }

    /// `POST /api/pair`: the device's new credential, or nil when the code is wrong, expired or used.
    /// A refused name changes nothing; a failed store write puts the code back.
    public func pair(_ request: PairRequest) async throws(ServiceError) -> PairAnswer? {
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= PairRequest.maximumNameLength, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalid(InputError(
                field: "name", message: "give the device a name of 1 to \(PairRequest.maximumNameLength) printable characters"))
        }
        await acquire()
        defer { release() }
        let now = self.now
        let expiry = pairing.withCodes { $0.expiry(of: request.code) }
        guard let expiry, pairing.withCodes({ $0.take(request.code, now: now) }) else { return nil }
        let (text, record) = DeviceCredentialText.make(name: name, deviceId: request.deviceId, now: now)
        do {
            try await dependencies.store.commit([.putDeviceCredential(record)])
        } catch {
            pairing.withCodes { $0.putBack(request.code, expiresAt: expiry) }
            throw .store(error)
        }
        pairing.keep(record)
        return PairAnswer(credential: text, credentialId: record.id.rawValue, name: name, deviceId: request.deviceId)
    }

    /// `DELETE /api/paired-devices/{id}` (the owner) or `DELETE /api/pair` (the device itself): the
    /// credential is refused from now on. Revoking a revoked one changes nothing.
    public func revokeCredential(_ id: DeviceCredentialID) async throws(ServiceError) -> DeviceCredentialRecord {
        await acquire()
        defer { release() }
        guard var record = pairing.credential(id) else { throw .notFound("no paired device '\(id)'; lfg pair list shows them") }
        guard !record.isRevoked else { return record }
        record.revokedAt = now
        do { try await dependencies.store.commit([.putDeviceCredential(record)]) } catch { throw .store(error) }
        pairing.keep(record)
        events.finish(tag: id.rawValue)
        return record
    }
}

/// A pairing code as the owner gets it: the code, the link the QR code carries, and its expiry.
public struct PairingGrant: Hashable, Sendable, Encodable {
    public var code: String
    public var link: String
    public var expiresAt: UnixTime
    public var expiresInSeconds: Int

    init(_ made: PairingCodeBook.Code, server: String, now: UnixTime) {
        code = made.code
        link = PairingLink(server: server, code: made.code).text
        expiresAt = made.expiresAt
        expiresInSeconds = Int((made.expiresAt - now).rounded(.down))
    }
}

/// One paired device as the owner's list shows it (never the secret or its hash).
public struct PairedDeviceListing: Hashable, Sendable, Codable {
    public var credentialId: DeviceCredentialID
    public var name: String
    public var deviceId: DeviceID?
    public var createdAt: UnixTime
    public var revokedAt: UnixTime?

    public init(_ record: DeviceCredentialRecord) {
        credentialId = record.id
        name = record.name
        deviceId = record.deviceId
        createdAt = record.createdAt
        revokedAt = record.revokedAt
    }
}
