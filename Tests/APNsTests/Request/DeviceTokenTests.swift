@testable import APNs
import Testing

@Suite struct DeviceTokenTests {
    @Test("A hex token is kept lowercased")
    func lowercases() throws {
        let token = try DeviceToken(hex: "ABCDEF0123")
        #expect(token.hex == "abcdef0123")
    }

    @Test("Bad token texts are refused with the reason", arguments: [
        ("", DeviceTokenError.empty),
        ("abc", .oddLength(length: 3)),
        ("zz11", .notHex(prefix: "zz11…")),
        (String(repeating: "a", count: 1026), .tooLong(length: 1026)),
    ])
    func refuses(text: String, error: DeviceTokenError) {
        #expect(throws: error) { try DeviceToken(hex: text) }
    }

    @Test("A token prints only its first 8 hex characters")
    func shortens() {
        #expect("\(Fixture.token)" == "a1b2c3d4…")
        #expect(!"\(Fixture.token)".contains(Fixture.tokenHex))
    }
}
