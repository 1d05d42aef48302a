/// Decodes `Decodable` values straight from the strict parser's ``JSONValue``, with the errors
/// Foundation's `JSONDecoder` gives (the same `DecodingError` cases and coding paths, so
/// ``InputError`` names the same field), except that a number which does not fit its field names the
/// field (JSONDecoder called the whole body invalid).
///
/// Why: every request body was parsed twice, strictly (`JSONParser`) and then again by JSONDecoder;
/// under ingest load (bench/ingest.sh) the second parse was 6% of the server's time.
///
/// Foundation's special types (`Data`, `URL`, `Date`) decode as their own `init(from:)` says, not as
/// JSONDecoder's strategies would: no request body has one.
public struct JSONValueDecoder: Decoder {
    let value: JSONValue
    /// The path of the value that holds this one, and this value's key in it: the whole path is built only
    /// when asked for (an error, a nested container), so a field costs no array of its own (under ingest
    /// load, bench/ingest.sh, one array per field of every request body showed in the profile).
    private let parentPath: [any CodingKey]
    private let key: (any CodingKey)?
    public var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.init(value, in: codingPath, key: nil)
    }

    /// The decoder of `value`, found at `key` inside the value at `parentPath`.
    init(_ value: JSONValue, in parentPath: [any CodingKey], key: (any CodingKey)?) {
        self.value = value
        self.parentPath = parentPath
        self.key = key
    }

    /// `type` decoded from `value`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoder(value).decodeValue(type)
    }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return JSONValueUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    public func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONValueSingleContainer(decoder: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(
            codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
    }

    /// One value: JSON's own kinds directly, anything else by its `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return try string() as! T }
        if T.self == Bool.self { return try bool() as! T }
        if T.self == Int.self { return try integer(Int.self) as! T }
        if T.self == Double.self { return try float(Double.self) as! T }
        return try T(from: self)
    }

    func isNull() -> Bool { value == .null }

    func string() throws -> String {
        if case .string(let text) = value { return text }
        throw nullOrMismatch(String.self)
    }

    func bool() throws -> Bool {
        if case .bool(let flag) = value { return flag }
        throw nullOrMismatch(Bool.self)
    }

    /// An integer from the number's text; a number with a fraction or exponent is taken when it is a whole
    /// number that fits, as JSONDecoder takes it.
    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .number(let text) = value else { throw nullOrMismatch(type) }
        if let exact = I(text) { return exact }
        if let number = Double(text), number.rounded() == number, let exact = I(exactly: number) { return exact }
        throw DecodingError.dataCorrupted(.init(
            codingPath: codingPath, debugDescription: "expected a whole number from \(I.min) to \(I.max), found \(text)"))
    }

    func float<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        guard case .number(let text) = value else { throw nullOrMismatch(type) }
        guard let number = F(text), number.isFinite else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath, debugDescription: "the number \(text) is out of range"))
        }
        return number
    }

    private func nullOrMismatch(_ type: Any.Type) -> DecodingError {
        guard value == .null else { return mismatch(type) }
        return .valueNotFound(type, .init(
            codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
    }
}

private struct JSONValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> JSONValueDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return JSONValueDecoder(value, in: codingPath, key: key)
    }

    /// The decoder for `key` unless it is absent or null: one look-up, where the protocol's default
    /// (`contains`, `decodeNil`, `decode`) takes three.
    private func decoderIfPresent(for key: Key) -> JSONValueDecoder? {
        guard let value = object[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return JSONValueDecoder(value, in: codingPath, key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decoderIfPresent(for: key)?.bool() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decoderIfPresent(for: key)?.string()
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decoderIfPresent(for: key)?.float(type)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decoderIfPresent(for: key)?.integer(type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decoderIfPresent(for: key)?.decodeValue(type)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).isNull() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).float(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).float(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(object["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(object[key.stringValue] ?? .null, in: codingPath, key: key)
    }
}

private struct JSONValueUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element's decoder; moves on only when `body` succeeds (as JSONDecoder does).
    private mutating func next<T>(_ type: Any.Type, _ body: (JSONValueDecoder) throws -> T) throws -> T {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        let result = try body(JSONValueDecoder(elements[currentIndex], codingPath: path))
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool() } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.string() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.float(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.float(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.integer(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.integer(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decodeValue(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next([String: Any].self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) { $0 } }
}

private struct JSONValueSingleContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.isNull() }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.float(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.float(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

/// An array index in a coding path (`[3]` in an error's field).
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
