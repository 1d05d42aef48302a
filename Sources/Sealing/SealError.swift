/// Why a seal or an open failed. Each case names what is wrong; none carries key material or plaintext.
public enum SealError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A public key that is not a 65-byte uncompressed SEC1 P-256 point on the curve.
    case badPublicKey(String)
    /// A private key scalar that is not 32 bytes in [1, n-1].
    case badPrivateKey(String)
    /// A sealed value that is not well-formed (base64, length).
    case malformed(String)
    /// Sealed to a key other than the opener's: the key id does not match. Nothing was opened.
    case staleKey(sealedTo: String, opener: String)
    /// The AEAD tag did not verify: tampered with, or sealed to another key with the same id.
    case authenticationFailed
    /// OpenSSL refused an operation.
    case crypto(String)

    public var description: String {
        switch self {
        case .badPublicKey(let why): "bad seal public key: \(why)"
        case .badPrivateKey(let why): "bad seal private key: \(why)"
        case .malformed(let why): "malformed sealed value: \(why)"
        case .staleKey(let sealedTo, let opener): "sealed to key \(sealedTo), but this key is \(opener) (stale key)"
        case .authenticationFailed: "sealed value failed authentication (tampered, or the wrong key)"
        case .crypto(let why): "crypto failure: \(why)"
        }
    }
}
