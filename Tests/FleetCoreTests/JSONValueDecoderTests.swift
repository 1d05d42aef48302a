import FleetCore
import Foundation
import Testing

/// Request bodies are decoded from the strict parser's value (`JSONValueDecoder`); each body must come
/// out as Foundation's JSONDecoder takes it: the same value, or the same kind of error at the same field.
@Suite struct JSONValueDecoderTests {
    /// Every shape the decoder has a path for.
    struct Shapes: Decodable, Equatable {
        var text: String
        var flag: Bool?
        var count: Int?
        var small: UInt8?
        var ratio: Double?
        var single: Float?
        var list: [Int?]?
        var nested: [[String]]?
        var map: [String: Int]?
        var report: SessionReport?
    }

    /// What a decode gave: the value, or the error's kind and field (as ``InputError`` reports it).
    enum Outcome<T: Equatable>: Equatable {
        case value(T)
        case error(InputError)
    }

    static func outcome<T: Decodable & Equatable>(_ type: T.Type, _ decode: () throws -> T) -> Outcome<T> {
        do { return .value(try decode()) } catch let error as DecodingError { return .error(InputError(error)) } catch {
            return .error(InputError(field: "?", message: "\(error)"))
        }
    }

    static func expectSameOutcome<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reference = outcome(type) { try JSONDecoder().decode(type, from: Data(text.utf8)) }
        let value = try JSONParser.parse(text)
        let ours = outcome(type) { try JSONValueDecoder.decode(type, from: value) }
        #expect(ours == reference, "\(text)", sourceLocation: sourceLocation)
    }

    @Test("Valid bodies decode to the same values", arguments: [
        #"{"text":"a"}"#,
        #"{"text":"a","flag":true,"count":-3,"small":255,"ratio":1.5e3,"single":0.1,"list":[1,null,3]}"#,
        #"{"text":"","nested":[[],["x","y"]],"map":{"b":2,"a":1}}"#,
        #"{"text":"a","count":1.0,"ratio":2}"#,
        #"{"text":"a","count":1e2,"ratio":-0}"#,
        #"{"text":"a","flag":null,"count":null,"list":null}"#,
        #"{"text":"a","report":{"title":"t","busy":true,"prompt":{"kind":"plan","text":"ok?","options":["a"]}}}"#,
        #"{"text":"a","report":{}}"#,
        #"{"text":"é\u00e9\n","unknown":[1,{"deep":true}]}"#,
    ])
    func validBodies(_ text: String) throws {
        try Self.expectSameOutcome(Shapes.self, text)
    }

    @Test("Wrong bodies fail with the same kind of error at the same field", arguments: [
        #"{}"#,
        #"{"text":null}"#,
        #"{"text":1}"#,
        #"{"text":"a","flag":"yes"}"#,
        #"{"text":"a","count":"3"}"#,
        #"{"text":"a","list":{"0":1}}"#,
        #"{"text":"a","list":[1,"two"]}"#,
        #"{"text":"a","nested":[["x"],[1]]}"#,
        #"{"text":"a","map":[]}"#,
        #"{"text":"a","map":{"k":"v"}}"#,
        #"{"text":"a","report":[]}"#,
        #"{"text":"a","report":{"busy":"no"}}"#,
        #"{"text":"a","report":{"prompt":{"kind":"bogus"}}}"#,
        #"{"text":"a","report":{"prompt":{"options":[1]}}}"#,
        #"[]"#,
        #""text""#,
    ])
    func wrongBodies(_ text: String) throws {
        try Self.expectSameOutcome(Shapes.self, text)
    }

    @Test("A number that does not fit its field names the field (JSONDecoder called the whole body invalid)")
    func outOfRangeNumbersNameTheirField() throws {
        let cases: [(String, InputError)] = [
            (#"{"text":"a","count":1.5}"#, InputError(
                field: "count", message: "expected a whole number from \(Int.min) to \(Int.max), found 1.5")),
            (#"{"text":"a","small":256}"#, InputError(field: "small", message: "expected a whole number from 0 to 255, found 256")),
            (#"{"text":"a","small":-1}"#, InputError(field: "small", message: "expected a whole number from 0 to 255, found -1")),
            (#"{"text":"a","ratio":1e400}"#, InputError(field: "ratio", message: "the number 1e400 is out of range")),
        ]
        for (text, expected) in cases {
            let value = try JSONParser.parse(text)
            #expect(Self.outcome(Shapes.self) { try JSONValueDecoder.decode(Shapes.self, from: value) } == .error(expected))
        }
    }
}
