/// A P-256 private key that signs provider tokens (ES256). The live adapter is OpenSSL's.
///
/// Implementations are thread-safe: one key signs from any task.
public protocol SigningKey: Sendable {
    /// Signs `message` with ECDSA P-256 over SHA-256; returns the 64-byte raw `R || S` form JWS needs.
    func signES256(_ message: [UInt8]) throws(SigningError) -> [UInt8]
}

/// A signing or key-loading failure: what went wrong and what to do.
public struct SigningError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
