/// The key a device's alerts are sealed to (`"sealKey"` on `PUT /api/devices/{id}`, contract 8.3), as stored:
/// the base64 it registered and that key's id. Made only by an ``AlertSealing`` that checked it is a P-256 point.
///
/// Stored and listed as `{"base64": ..., "keyId": ...}`; the API lists only ``keyID`` (it names the key, and the
/// key is public anyway, but nothing needs more).
public struct DeviceSealKey: Hashable, Sendable, Codable {
    /// base64 of the 65-byte uncompressed point (docs/sealed-alerts.md).
    public var base64: String
    /// 16 hex characters: the first 8 bytes of SHA-256 of the point; a sealed alert names it as `kid`.
    public var keyID: String

    public init(base64: String, keyID: String) {
        self.base64 = base64
        self.keyID = keyID
    }

    enum CodingKeys: String, CodingKey {
        case base64
        case keyID = "keyId"
    }
}
