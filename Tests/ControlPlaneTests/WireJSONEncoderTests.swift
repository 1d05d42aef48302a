import APNs
import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// `WireJSON.encode` is our own encoder; it must write exactly the bytes Foundation's JSONEncoder
/// (`WireJSON.encoder()`, the reference) writes for every value, so stored rows, answers and payloads
/// are the same whichever wrote them.
@Suite struct WireJSONEncoderTests {
    /// Every kind of value the encoder has a path for.
    struct Everything: Encodable {
        var text = "plain"
        var flag = true
        var integer = -42
        var unsigned: UInt64 = .max
        var small: Int8 = -8
        var double = 1.5
        var float: Float = 0.1
        var optionalPresent: String? = "here"
        var optionalAbsent: String?
        var array: [Int?] = [1, nil, 3]
        var nested: [[String]] = [[], ["a"], ["b", "c"]]
        var dictionary: [String: Int] = ["b": 2, "a": 1, "B": 3, "a10": 10, "a9": 9, "é": 5, "": 0]
        /// Keys that share their first 8 bytes (the encoder's integer sort prefix) or end inside them.
        var longKeys: [String: Int] = [
            "abcdefghij": 1, "abcdefgh": 2, "abcdefghi": 3, "abcdefgha": 4, "abcdefg": 5, "abcdefgz": 6,
            "abcdefgh\u{0}": 7, "abc\u{0}": 8, "abc": 9, "abcdefghé": 10, "abcdefghz": 11,
        ]
        var intKeyed: [Int: String] = [10: "ten", 2: "two"]
        var data = Data([0, 1, 2, 250, 255])
        var url = URL(string: "https://example.com/a/b?c=d")!
        var date = Date(timeIntervalSinceReferenceDate: 12.25)
        var empty: [String: Int] = [:]

        enum CodingKeys: String, CodingKey {
            case text, flag, integer, unsigned, small, double, float, optionalPresent, optionalAbsent, array, nested
            case dictionary, longKeys, intKeyed, data, url, date, empty, innerObject, innerList, parent
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(flag, forKey: .flag)
            try container.encode(integer, forKey: .integer)
            try container.encode(unsigned, forKey: .unsigned)
            try container.encode(small, forKey: .small)
            try container.encode(double, forKey: .double)
            try container.encode(float, forKey: .float)
            try container.encodeIfPresent(optionalPresent, forKey: .optionalPresent)
            try container.encodeIfPresent(optionalAbsent, forKey: .optionalAbsent)
            try container.encode(optionalAbsent, forKey: .optionalAbsent)  // null, and set twice: the last wins
            try container.encode(array, forKey: .array)
            try container.encode(nested, forKey: .nested)
            try container.encode(dictionary, forKey: .dictionary)
            try container.encode(longKeys, forKey: .longKeys)
            try container.encode(intKeyed, forKey: .intKeyed)
            try container.encode(data, forKey: .data)
            try container.encode(url, forKey: .url)
            try container.encode(date, forKey: .date)
            try container.encode(empty, forKey: .empty)
            var inner = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .innerObject)
            try inner.encode(1, forKey: .integer)
            var list = container.nestedUnkeyedContainer(forKey: .innerList)
            try list.encode("x")
            try list.encodeNil()
            var deeper = list.nestedContainer(keyedBy: CodingKeys.self)
            try deeper.encode(2.0, forKey: .double)
            try Parent().encode(to: container.superEncoder())
            try Parent().encode(to: container.superEncoder(forKey: .parent))
        }
    }

    struct Parent: Encodable { var inherited = "yes" }

    static func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try WireJSON.encoder().encode(value)
        let ours = try WireJSON.encode(value)
        #expect(
            String(decoding: ours, as: UTF8.self) == String(decoding: reference, as: UTF8.self),
            sourceLocation: sourceLocation)
    }

    @Test("Every container, number, key order, escape and special type is written as JSONEncoder writes it")
    func everythingMatches() throws {
        try Self.expectSameBytes(Everything())
    }

    @Test("Doubles: integral, fractional, tiny, huge, negative zero", arguments: [
        0.0, -0.0, 1.0, -1.0, 0.1, 1.5, 1e-7, 123_456_789.125, 1_764_629_400.0, 1_764_629_400.5, 1e15, 1e16, 1e21,
        -2.5e-300, Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude,
    ])
    func doublesMatch(_ value: Double) throws {
        try Self.expectSameBytes([value])
    }

    @Test("Strings: quotes, backslashes, slashes, every control character, non-ASCII")
    func stringsMatch() throws {
        let controls = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        try Self.expectSameBytes([
            controls, "\"quoted\" and \\back\\", "a/b/c", "é, 日本, 🇸🇪, e\u{301}", "\u{7F}\u{2028}\u{FEFF}", "",
        ])
    }

    @Test("Top-level fragments and an empty value")
    func fragmentsMatch() throws {
        try Self.expectSameBytes("just text")
        try Self.expectSameBytes(7)
        try Self.expectSameBytes(Optional<Int>.none)
        try Self.expectSameBytes([String: String]())
    }

    @Test("Wire values: a session listing, the GET body, a question, a decision-log line, a push payload")
    func wireValuesMatch() throws {
        let report = SessionReport(
            title: "Port \"the\" watcher/ü", host: "mac", cwd: "/src/lfg", busy: true,
            prompt: Prompt(id: "q1", kind: .permission, text: "Run rm?\n", options: ["Allow", "Deny"], expiresAt: 1_764_629_400.25),
            step: "Edit")
        let listing = SessionListing(sid: "s-1", report: report, displayState: .needsInput, heardAt: 1_764_629_399.5)
        try Self.expectSameBytes(listing)
        struct Body: Encodable { var sessions: [SessionListing] }
        try Self.expectSameBytes(Body(sessions: [listing, SessionListing(sid: "s-2", report: .init(), displayState: .idle)]))
        let question = try #require(Question.asked(by: report.prompt!, in: "s-1", at: 1_764_629_000, defaultLifetime: 600))
        try Self.expectSameBytes(question)
        try Self.expectSameBytes(ErrorBody(error: "nope", field: "title"))
    }

    @Test("NaN and infinities are refused, as JSONEncoder refuses them")
    func nonFiniteRefused() {
        #expect(throws: EncodingError.self) { try WireJSON.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try WireJSON.encode([Double.infinity]) }
        #expect(throws: EncodingError.self) { try WireJSON.encoder().encode([Double.infinity]) }
    }
}
