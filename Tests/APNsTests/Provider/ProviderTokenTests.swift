import APNs
import ES256OpenSSL
import Foundation
import Testing

@Suite struct ProviderTokenTests {
    @Test("A minted token is an ES256 JWT with kid, iss and iat that verifies against the key's public half")
    func validity() throws {
        let key = try OpenSSLSigningKey.generateP256()
        let clock = ManualWallClock(1_764_400_000.7)
        let cache = ProviderTokenCache(keyID: "KEY1234567", teamID: "TEAM123456", key: key, clock: clock.clock)
        let token = try cache.token()
        let parsed = try #require(ParsedProviderToken(token))
        #expect(parsed.algorithm == "ES256")
        #expect(parsed.signature.count == 64)
        #expect(try JSONValue(parsing: Base64URL.decode(token.split(separator: ".")[0])!)
            == .object(["alg": .string("ES256"), "kid": .string("KEY1234567")]))
        #expect(try JSONValue(parsing: Base64URL.decode(token.split(separator: ".")[1])!)
            == .object(["iss": .string("TEAM123456"), "iat": .number(1_764_400_000)]))
        #expect(try key.verifier().verify(providerToken: token)
            == ProviderTokenClaims(keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: 1_764_400_000))
    }

    @Test("A token signed by another key, or with altered claims, does not verify")
    func forgery() throws {
        let key = try OpenSSLSigningKey.generateP256()
        let other = try OpenSSLSigningKey.generateP256()
        let clock = ManualWallClock()
        let token = try ProviderTokenCache(keyID: "K", teamID: "T", key: key, clock: clock.clock).token()
        #expect(try other.verifier().verify(providerToken: token) == nil)
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"iss":"EVIL","iat":1764400000}"#.utf8))
        #expect(try key.verifier().verify(providerToken: parts.joined(separator: ".")) == nil)
        #expect(try key.verifier().verify(providerToken: "not.a.jwt") == nil)
    }

    @Test("A key round-trips through PKCS#8 PEM and a non-P-256 or garbled key is refused")
    func pem() throws {
        let key = try OpenSSLSigningKey.generateP256()
        let pem = try key.privateKeyPEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reloaded = try OpenSSLSigningKey(pem: Array(pem.utf8))
        let signature = try reloaded.signES256(Array("hello".utf8))
        #expect(try key.verifier().isValid(signature: signature, message: Array("hello".utf8)))
        #expect(throws: SigningError.self) { try OpenSSLSigningKey(pem: Array("garbage".utf8)) }
    }

    @Test("The same token is reused inside the window and a new one minted once it has passed")
    func reuse() throws {
        let clock = ManualWallClock()
        let cache = ProviderTokenCache(
            keyID: "K", teamID: "T", key: try OpenSSLSigningKey.generateP256(), clock: clock.clock,
            policy: ProviderTokenPolicy(refreshAfter: 40 * 60))
        let first = try cache.token()
        clock.advance(by: 40 * 60 - 1)
        #expect(try cache.token() == first)
        #expect(cache.mintCount == 1)
        clock.advance(by: 1)
        let second = try cache.token()
        #expect(second != first)
        let issuedAt: Int64? = ParsedProviderToken(second)?.claims.issuedAt
        #expect(issuedAt == 1_764_402_400)
        #expect(cache.mintCount == 2)
    }

    @Test("The reuse window is clamped to 20 ... 55 minutes, so a token is never older than an hour")
    func clamp() {
        #expect(ProviderTokenPolicy(refreshAfter: 60).refreshAfter == 20 * 60)
        #expect(ProviderTokenPolicy(refreshAfter: 2 * 3600).refreshAfter == 55 * 60)
        let policy = ProviderTokenPolicy(refreshAfter: 2 * 3600)
        #expect(!policy.isReusable(issuedAt: 0, now: 60 * 60))
        #expect(!policy.isReusable(issuedAt: 1000, now: 900))
    }

    @Test("ExpiredProviderToken retires the rejected token at once; a stale report leaves the newer one alone")
    func expired() throws {
        let clock = ManualWallClock()
        let cache = ProviderTokenCache(keyID: "K", teamID: "T", key: try OpenSSLSigningKey.generateP256(), clock: clock.clock)
        let first = try cache.token()
        clock.advance(by: 5)
        cache.tokenExpired(first)
        let second = try cache.token()
        #expect(second != first)
        cache.tokenExpired(first)
        #expect(try cache.token() == second)
        #expect(cache.mintCount == 2)
    }
}
