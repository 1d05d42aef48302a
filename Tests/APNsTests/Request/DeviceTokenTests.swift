@testable import APNs
import FleetCore
import Testing

@Suite struct DeviceTokenTests {
    @Test("A hex token is kept lowercased")
    func lowercases() throws {
        let token = try DeviceToken(hex: "ABCDEF0123456789")
        #expect(token.hex == "abcdef0123456789")
    }

    @Test("Bad token texts are refused with the reason", arguments: [
        ("", DeviceTokenError.empty),
        (String(repeating: "a", count: 17), .oddLength(length: 17)),
        ("zz11" + String(repeating: "a", count: 12), .notHex(prefix: "zz11aaaa…")),
        (String(repeating: "a", count: 1026), .badLength(length: 1026)),
        (String(repeating: "a", count: 14), .badLength(length: 14)),
    ])
    func refuses(text: String, error: DeviceTokenError) {
        #expect(throws: error) { try DeviceToken(hex: text) }
    }

    @Test("The sender takes exactly the tokens the API takes: one rule (FleetCore.TokenHex)")
    func sameRuleAsTheAPI() {
        for length in [0, 1, 14, 15, 16, 17, 63, 64, 65, 200, 511, 512, 513, 514, 1024] {
            let text = String(repeating: "b", count: length)
            let sendable = (try? DeviceToken(hex: text)) != nil
            #expect(sendable == (TokenHex.normalized(text) != nil), "length \(length)")
        }
    }

    @Test("A token prints only its first 8 hex characters")
    func shortens() {
        #expect("\(Fixture.token)" == "a1b2c3d4…")
        #expect(!"\(Fixture.token)".contains(Fixture.tokenHex))
    }
}
