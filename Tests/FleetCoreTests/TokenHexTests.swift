import FleetCore
import Testing

@Suite struct TokenHexTests {
    @Test("A token is whole bytes: an odd number of hex digits is refused, naming the length")
    func oddLengthIsRefused() {
        #expect(TokenHex.normalized(String(repeating: "a", count: 65)) == nil)
        #expect(throws: TokenHex.Problem.oddLength(length: 65)) { try TokenHex.validated(String(repeating: "a", count: 65)) }
        #expect(TokenHex.normalized(String(repeating: "A", count: 64)) == String(repeating: "a", count: 64))
    }

    @Test("Each bad text is refused with what is wrong", arguments: [
        ("", TokenHex.Problem.length(0)),
        (String(repeating: "a", count: 14), .length(14)),
        (String(repeating: "a", count: 514), .length(514)),
        ("zz" + String(repeating: "a", count: 30), .notHex(prefix: "zzaaaaaa")),
    ])
    func refuses(text: String, problem: TokenHex.Problem) {
        #expect(throws: problem) { try TokenHex.validated(text) }
    }

    @Test("The bounds are whole bytes too: 16 and 512 digits are accepted")
    func boundsAreAccepted() {
        #expect(TokenHex.normalized(String(repeating: "0", count: 16)) != nil)
        #expect(TokenHex.normalized(String(repeating: "0", count: 512)) != nil)
    }
}
