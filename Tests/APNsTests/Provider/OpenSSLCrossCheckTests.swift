import APNs
import ES256OpenSSL
import Foundation
import Testing

/// Checks provider tokens with the `openssl` command (installed by scripts/setup.sh), so the
/// signature is verified by code that is not ours: the JWS `R || S` is turned into DER here, by hand.
@Suite struct OpenSSLCrossCheckTests {
    @Test("The openssl command verifies a provider token's signature with the public key, and rejects a changed token")
    func opensslVerifies() throws {
        let key = try OpenSSLSigningKey.generateP256()
        let token = try ProviderTokenCache(keyID: "KEY1234567", teamID: "TEAM123456", key: key, clock: ManualWallClock().clock).token()
        let parts = token.split(separator: ".").map(String.init)
        let signature = try #require(Base64URL.decode(parts[2]))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-jwt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try key.publicKeyPEM().utf8).write(to: directory.appendingPathComponent("public.pem"))
        try Data(Self.der(rawSignature: signature)).write(to: directory.appendingPathComponent("signature.der"))
        try Data((parts[0] + "." + parts[1]).utf8).write(to: directory.appendingPathComponent("signed"))
        try Data((parts[0] + "." + parts[0]).utf8).write(to: directory.appendingPathComponent("changed"))
        #expect(try Self.opensslVerify(in: directory, message: "signed") == 0)
        #expect(try Self.opensslVerify(in: directory, message: "changed") != 0)
    }

    static func opensslVerify(in directory: URL, message: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.currentDirectoryURL = directory
        process.arguments = ["dgst", "-sha256", "-verify", "public.pem", "-signature", "signature.der", message]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// ASN.1 `SEQUENCE { INTEGER r, INTEGER s }` from the 64-byte JWS form.
    static func der(rawSignature: [UInt8]) -> [UInt8] {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(rawSignature[0..<32]) + integer(rawSignature[32..<64])
        return [0x30, UInt8(body.count)] + body
    }
}
