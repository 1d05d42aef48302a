import FleetCore
import Foundation

/// A device's sealing key as it registers it (`sealKey` on `PUT /api/devices/{id}`): a P-256 public key in
/// the 65-byte uncompressed SEC1 form CryptoKit gives as `P256.KeyAgreement.PublicKey.x963Representation`,
/// base64 on the wire. Checked on the curve when made, so a bad key is refused at registration.
public struct SealPublicKey: Sendable, Hashable {
    /// 0x04 || X || Y.
    public let x963: [UInt8]
    /// The first 8 bytes of SHA-256(x963), hex: names the key inside every sealed alert so the phone can
    /// tell an alert sealed to a key it has since replaced (a stale key) from a damaged one.
    public let keyID: String

    public init(x963: [UInt8]) throws(SealError) {
        let key = try P256.publicKey(x963: x963)
        P256.free(key)
        self.x963 = x963
        keyID = try Self.keyID(of: x963)
    }

    /// From the base64 text a device registers.
    public init(base64: String) throws(SealError) {
        guard let bytes = Data(base64Encoded: base64) else { throw SealError.badPublicKey("sealKey is not base64") }
        try self.init(x963: Array(bytes))
    }

    /// The base64 text of ``x963``.
    public var base64: String { Data(x963).base64EncodedString() }

    static func keyID(of x963: [UInt8]) throws(SealError) -> String {
        SealedAlertFormat.keyID(fromSHA256: try HKDFSHA256.sha256(x963))
    }
}
