import FleetCore
import Testing

/// The one JSON parser (API bodies, hook payloads, settings files) refuses what is ambiguous.
@Suite struct JSONParserStrictTests {
    @Test("Repeated keys, trailing commas, a BOM, UTF-16 and deep nesting are syntax errors",
          arguments: [
            (Array(#"{"a":1,"a":2}"#.utf8), "appears twice"),
            (Array(#"{"a":1,}"#.utf8), "expected a string key"),
            (Array("[1,]".utf8), "expected a value"),
            ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), "byte-order mark"),
            ([0x7B, 0x00, 0x7D, 0x00], "zero bytes"),
            ([0x22, 0xC3, 0x22], "not valid UTF-8"),
            (Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8), "nested too deep"),
          ])
    func refused(bytes: [UInt8], says: String) {
        #expect {
            _ = try JSONParser.parse(bytes: bytes)
        } throws: { error in
            "\(error)".contains(says)
        }
    }

    @Test("Valid JSON still parses, keeping key order")
    func accepted() throws {
        let value = try JSONParser.parse(bytes: Array(#" {"b":[1,2.5e3,"\u00e9"],"a":{"x":null}} "#.utf8))
        #expect(value.objectValue?.members.map(\.key) == ["b", "a"])
    }
}
