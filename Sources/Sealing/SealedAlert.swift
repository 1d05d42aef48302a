import Foundation

/// One sealed alert body as it travels in a push: which key it is sealed to, and base64(enc || ciphertext).
///
/// Wire form (see docs/sealed-alerts.md): `{"kid": "<16 hex>", "box": "<base64 of enc || ct>"}`, where enc is
/// the sender's 65-byte ephemeral P-256 point and ct is AES-256-GCM ciphertext with its 16-byte tag.
public struct SealedAlert: Sendable, Hashable {
    /// ``SealPublicKey/keyID`` of the key it is sealed to.
    public let keyID: String
    /// enc || ciphertext || tag.
    public let box: [UInt8]

    public init(keyID: String, box: [UInt8]) {
        self.keyID = keyID
        self.box = box
    }

    /// From the wire's base64 text; refuses text that is not base64 or too short to hold enc and a tag.
    public init(keyID: String, base64: String) throws(SealError) {
        guard let bytes = Data(base64Encoded: base64) else { throw SealError.malformed("box is not base64") }
        guard bytes.count >= HPKESuite.encBytes + HPKESuite.tagBytes else {
            throw SealError.malformed("box has \(bytes.count) bytes, fewer than enc (65) and a tag (16)")
        }
        self.init(keyID: keyID, box: Array(bytes))
    }

    /// The base64 text the push carries.
    public var base64: String { Data(box).base64EncodedString() }

    /// The sender's ephemeral public point.
    var enc: [UInt8] { Array(box.prefix(HPKESuite.encBytes)) }
    /// The AEAD ciphertext and tag.
    var ciphertext: [UInt8] { Array(box.dropFirst(HPKESuite.encBytes)) }
}
