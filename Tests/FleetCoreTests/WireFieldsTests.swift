import FleetCore
import Testing

/// A report (and its prompt) is decoded by one set of rules read two ways: through `init(from:)` (any
/// `Decoder`) and straight from a parsed value (`init(json:)`, every `PUT /api/sessions/{sid}`). Both must
/// give the same report, or the same error naming the same field, for any input: random objects from a
/// seeded generator with every member absent, null, of its type or of another, unknown members, bad
/// prompt kinds, numbers out of range and over-long titles.
@Suite struct WireFieldsTests {
    /// How `input` decodes by both ways, as comparable results.
    static func decodings(_ input: JSONValue) -> (codable: Result<SessionReport, InputError>, fields: Result<SessionReport, InputError>) {
        func result(_ body: () throws -> SessionReport) -> Result<SessionReport, InputError> {
            do { return .success(try body()) } catch let error as DecodingError {
                return .failure(InputError(error))
            } catch {
                return .failure(InputError(field: nil, message: "not a DecodingError: \(error)"))
            }
        }
        return (
            result { try JSONValueDecoder.decode(SessionReport.self, from: input) },
            result { try SessionReport(json: input) }
        )
    }

    @Test("A report read from a parsed value is the report (or the error) its Decodable reading gives, over 4,000 random inputs", arguments: 1...4)
    func randomInputsMatch(seed: UInt64) {
        var random = RandomFields(seed: seed)
        var failures = 0
        var successes = 0
        for _ in 0..<1_000 {
            let input = random.reportObject()
            let (codable, fields) = Self.decodings(input)
            #expect(codable == fields, "seed \(seed): \(input)")
            if codable != fields { return }
            if case .success = codable { successes += 1 } else { failures += 1 }
        }
        // Both kinds of outcome were exercised, not only one.
        #expect(successes > 100)
        #expect(failures > 100)
    }

    @Test("Named cases: defaults, a wrong type at the top and inside the prompt, an unknown kind, a long title")
    func namedCases() {
        let cases: [JSONValue] = [
            .object([:]),
            .object(["title": .null, "prompt": .null, "step": .null]),
            .object(["busy": .string("yes")]),
            .object(["host": .number("1")]),
            .object(["prompt": .array([])]),
            .object(["prompt": .object(["kind": .string("dance")])]),
            .object(["prompt": .object(["kind": .number("2")])]),
            .object(["prompt": .object(["options": .array([.string("a"), .null])])]),
            .object(["prompt": .object(["expiresAt": .number("1e400")])]),
            .object(["title": .string(String(repeating: "é", count: 1_200))]),
            .array([]),
            .string("report"),
        ]
        for input in cases {
            let (codable, fields) = Self.decodings(input)
            #expect(codable == fields, "\(input)")
        }
        #expect(throws: DecodingError.self) { try SessionReport(json: .object(["busy": .string("yes")])) }
        #expect(throws: Never.self) { try SessionReport(json: .object(["unknown": .bool(true)])) }
    }
}

/// Random report-shaped JSON objects: each member absent, null, well typed or of another kind.
struct RandomFields {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }

    mutating func text() -> String {
        ["", "a", "Port", "é🚀", "\"\\", "/src/lfg", "question", "plan", "dance", String(repeating: "x", count: 1_001)]
            .randomElement(using: &generator)!
    }

    mutating func number() -> JSONValue {
        .number(["0", "-0", "1", "1.5", "1764650000.25", "1e400", "-1e3", "12345678901234567890"].randomElement(using: &generator)!)
    }

    /// Any JSON value, shallow.
    mutating func anyValue() -> JSONValue {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: .null
        case 1: .bool(chance(50))
        case 2: number()
        case 3: .string(text())
        case 4: .array(chance(50) ? [] : [.string(text()), chance(50) ? .null : number()])
        default: .object(chance(50) ? [:] : ["x": .bool(true)])
        }
    }

    /// Mostly `expected`, sometimes null, absent (nil) or another kind.
    mutating func member(_ expected: JSONValue) -> JSONValue? {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<60: expected
        case 60..<75: nil
        case 75..<85: .null
        default: anyValue()
        }
    }

    mutating func promptObject() -> JSONValue {
        var object = JSONObject()
        object["id"] = member(.string(text()))
        object["kind"] = member(.string(["question", "permission", "plan", "signin", "dance"].randomElement(using: &generator)!))
        object["text"] = member(.string(text()))
        var options: [JSONValue] = []
        for _ in 0..<Int.random(in: 0...3, using: &generator) { options.append(chance(90) ? .string(text()) : anyValue()) }
        object["options"] = member(.array(options))
        object["expiresAt"] = member(number())
        object["canAlwaysAllow"] = member(.bool(chance(50)))
        return .object(object)
    }

    mutating func reportObject() -> JSONValue {
        var object = JSONObject()
        object["title"] = member(.string(text()))
        object["host"] = member(.string(text()))
        object["cwd"] = member(.string(text()))
        for key in ["busy", "blocked", "unread", "archived"] { object[key] = member(.bool(chance(50))) }
        object["prompt"] = member(promptObject())
        object["step"] = member(.string(text()))
        if chance(20) { object["unknown"] = anyValue() }
        return .object(object)
    }
}
