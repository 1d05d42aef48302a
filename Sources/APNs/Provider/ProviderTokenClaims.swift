import Foundation

/// The parts of an APNs provider token (JWT, ES256) before signing: header `{alg, kid}` and claims `{iss, iat}`.
public struct ProviderTokenClaims: Hashable, Sendable {
    /// The 10-character Key ID (`kid`).
    public var keyID: String
    /// The 10-character Team ID (`iss`).
    public var teamID: String
    /// Issue time, whole Unix seconds (`iat`).
    public var issuedAt: UnixSeconds

    public init(keyID: String, teamID: String, issuedAt: UnixSeconds) {
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
    }

    /// The header JSON: `{"alg":"ES256","kid":...}`.
    public var headerJSON: [UInt8] {
        Array(#"{"alg":"ES256","kid":\#(Self.quoted(keyID))}"#.utf8)
    }

    /// The claims JSON: `{"iss":...,"iat":<number>}` (a JSON number, as Apple's example uses).
    public var claimsJSON: [UInt8] {
        Array(#"{"iss":\#(Self.quoted(teamID)),"iat":\#(issuedAt)}"#.utf8)
    }

    /// `base64url(header) + "." + base64url(claims)`: the bytes the signature covers.
    public var signingInput: String {
        Base64URL.encode(headerJSON) + "." + Base64URL.encode(claimsJSON)
    }

    /// The complete token: signing input, a dot, and the base64url raw `R || S` signature.
    public func token(signature: [UInt8]) -> String {
        signingInput + "." + Base64URL.encode(signature)
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Base64url without padding (RFC 7515), as JWTs use it.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes base64url with or without padding; nil when it is not base64url.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while !base64.utf8.count.isMultiple(of: 4) { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}

/// A provider token split into its parts, as a server (the APNs stand-in) reads it.
public struct ParsedProviderToken: Hashable, Sendable {
    public let algorithm: String
    public let claims: ProviderTokenClaims
    /// The bytes the signature covers.
    public let signingInput: [UInt8]
    /// The raw signature bytes (64 for ES256).
    public let signature: [UInt8]

    /// Splits and decodes `token`; nil when it is not a three-part JWT with `alg`, `kid`, `iss` and a numeric `iat`.
    public init?(_ token: some StringProtocol) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let body = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let headerObject = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
            let bodyObject = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let algorithm = headerObject["alg"] as? String, let keyID = headerObject["kid"] as? String,
            let teamID = bodyObject["iss"] as? String, let issuedAt = bodyObject["iat"] as? NSNumber
        else { return nil }
        self.algorithm = algorithm
        claims = ProviderTokenClaims(keyID: keyID, teamID: teamID, issuedAt: issuedAt.int64Value)
        signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }
}
