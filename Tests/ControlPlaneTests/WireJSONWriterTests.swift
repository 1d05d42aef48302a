import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// The hot path's types write their own JSON (``WireJSONWritable``); `WireJSON.encode` uses that code for
/// them. It must give exactly the bytes of their `Encodable` conformances, under our encoder and under
/// Foundation's JSONEncoder (the reference), for any value: random values from a seeded generator, with
/// escapes, non-ASCII text, optional fields absent and present and every enum case.
@Suite struct WireJSONWriterTests {
    /// Encodes its value through `Encodable` only: not ``WireJSONWritable`` itself, so `WireJSON.encode`
    /// takes the encoder's path.
    struct ThroughCodable<Value: Encodable>: Encodable {
        let value: Value
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    /// The three encodings of `value`, as text (a failure shows them).
    static func encodings(_ value: some Encodable & WireJSONWritable) throws -> (writer: String, ours: String, foundation: String) {
        var writer = WireJSONWriter()
        try value.write(to: &writer)
        #expect(try WireJSON.encode(value) == Data(writer.bytes), "WireJSON.encode writes a writable value with its writer")
        return (
            String(decoding: writer.bytes, as: UTF8.self),
            String(decoding: try WireJSON.encode(ThroughCodable(value: value)), as: UTF8.self),
            String(decoding: try WireJSON.encoder().encode(value), as: UTF8.self)
        )
    }

    @Test("A session listing's own writer gives its Encodable bytes, over 2,000 random listings", arguments: 1...4)
    func listingsMatch(seed: UInt64) throws {
        try Self.expectWritersMatch(seed: seed) { $0.listing() }
    }

    @Test("A session report's own writer gives its Encodable bytes (a stored row), over 2,000 random reports", arguments: 1...4)
    func reportsMatch(seed: UInt64) throws {
        try Self.expectWritersMatch(seed: seed) { $0.report() }
    }

    /// 500 random values from `make` on `seed`: each value's three encodings are equal (stops at the first
    /// value that differs, so one drift reads as one failure).
    static func expectWritersMatch<Value: Encodable & WireJSONWritable>(
        seed: UInt64, _ make: (inout RandomWire) -> Value
    ) throws {
        var random = RandomWire(seed: seed)
        for _ in 0..<500 {
            let (writer, ours, foundation) = try encodings(make(&random))
            #expect(writer == ours, "seed \(seed)")
            #expect(writer == foundation, "seed \(seed)")
            if writer != ours || writer != foundation { return }
        }
    }

    @Test("Every display state, prompt kind and row state is written as its Encodable encoding")
    func everyCase() throws {
        var random = RandomWire(seed: 99)
        for state in DisplayState.allCases {
            for kind in Prompt.Kind.allCases {
                for rowState in [RowState.working, .needsInput, .unrecognized("later \"one\"")] {
                    var listing = random.listing()
                    listing.displayState = state
                    listing.report.prompt = Prompt(id: "q", kind: kind, text: "Allow?")
                    listing.since = SinceEntry(state: rowState, since: 1_764_650_000.25)
                    let (writer, ours, foundation) = try Self.encodings(listing)
                    #expect(writer == ours)
                    #expect(writer == foundation)
                }
            }
        }
    }

    @Test("A number JSON cannot hold fails the writer as it fails the encoder")
    func nonFiniteNumbersThrow() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let listing = SessionListing(sid: "a", report: SessionReport(), displayState: .idle, heardAt: bad)
            #expect(throws: EncodingError.self) { try WireJSON.encode(listing) }
            #expect(throws: EncodingError.self) { try WireJSON.encode(ThroughCodable(value: listing)) }
        }
    }
}

/// Random wire values from one seed: text with escapes and non-ASCII, numbers of every shape.
struct RandomWire {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    static let pieces = [
        "", "a", "Port the watcher", "/src/lfg", "é", "日本語", "🚀", "e\u{301}", "\"", "\\", "/", "\n", "\t",
        "\r", "\u{8}", "\u{C}", "\u{0}", "\u{1F}", "\u{7F}", "</script>", " ", "{\"x\":1}", "\u{2028}",
    ]

    mutating func bool() -> Bool { Bool.random(using: &generator) }

    mutating func text() -> String {
        (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
    }

    mutating func optionalText() -> String? { bool() ? text() : nil }

    /// Integers, fractions, large and small magnitudes, negatives and zeros.
    mutating func number() -> Double {
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: Double(Int.random(in: 0...2_000_000_000, using: &generator))
        case 1: 1_764_650_000 + Double(Int.random(in: 0...999, using: &generator)) / 1_000
        case 2: Double.random(in: -1e6...1e6, using: &generator)
        case 3: Double.random(in: 0...1e-5, using: &generator)
        case 4: Double.random(in: 1e15...1e22, using: &generator)
        case 5: [0, -0.0, 1, -1, 0.1, 1e16, 123_456_789_012_345_680].randomElement(using: &generator)!
        default: Double.random(in: 0...1, using: &generator)
        }
    }

    mutating func optionalNumber() -> Double? { bool() ? number() : nil }

    mutating func prompt() -> Prompt {
        Prompt(
            id: optionalText(), kind: Prompt.Kind.allCases.randomElement(using: &generator)!, text: text(),
            options: bool() ? (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() } : nil,
            expiresAt: optionalNumber(), canAlwaysAllow: bool() ? bool() : nil)
    }

    mutating func report() -> SessionReport {
        SessionReport(
            title: text(), host: HostID(text()), cwd: text(), busy: bool(), blocked: bool(), unread: bool(),
            prompt: bool() ? prompt() : nil, step: optionalText(), archived: bool())
    }

    mutating func listing() -> SessionListing {
        let rowState: RowState = [.working, .needsInput, .unrecognized(text())].randomElement(using: &generator)!
        return SessionListing(
            sid: SessionID(text()), report: report(), displayState: DisplayState.allCases.randomElement(using: &generator)!,
            heardAt: optionalNumber(), since: bool() ? SinceEntry(state: rowState, since: number()) : nil)
    }
}
