/// Reads one JSON object's members by key: absent or null is nil, a present member of the wrong type throws
/// the `DecodingError` Foundation's JSONDecoder gives (so ``InputError`` names the same field).
///
/// Why: a type the ingest path decodes (``SessionReport``, every `PUT /api/sessions/{sid}`) writes its
/// decoding once, against this protocol (``WireFieldsDecodable``), and is read two ways: through any
/// `Decoder` (``KeyedWireFields``, what `init(from:)` uses) and straight from the strict parser's value
/// (``JSONValueFields``). The containers of `Decodable` were a quarter of a `PUT`'s own work in
/// bench/ingest.sh's profile; the rules (defaults, order, errors) stay in one place.
public protocol WireFieldReader {
    associatedtype Key: CodingKey

    func string(_ key: Key) throws -> String?
    func bool(_ key: Key) throws -> Bool?
    func number(_ key: Key) throws -> Double?
    /// Any other decodable member, by its own `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T?
    /// A member that is itself read field by field.
    func nested<T: WireFieldsDecodable>(_ type: T.Type, _ key: Key) throws -> T?
}

/// A type decoded field by field through a ``WireFieldReader``: its `init(from:)` reads through
/// ``KeyedWireFields``, and ``init(json:)`` reads a parsed ``JSONValue`` directly, with the same result
/// and the same errors (a test compares both over random input).
public protocol WireFieldsDecodable: Decodable {
    associatedtype FieldKey: CodingKey

    init<Reader: WireFieldReader>(reading fields: Reader) throws where Reader.Key == FieldKey
}

extension WireFieldsDecodable {
    /// Decodes the value from a decoder's keyed container (what `init(from:)` calls).
    public init(decoder: any Decoder) throws {
        try self.init(reading: KeyedWireFields(try decoder.container(keyedBy: FieldKey.self)))
    }

    /// Decodes the value straight from a parsed JSON value (an object, else the type mismatch JSONDecoder
    /// throws).
    public init(json value: JSONValue) throws {
        try self.init(reading: JSONValueFields<FieldKey>(JSONValueDecoder(value)))
    }
}

/// The members of a `Decodable` keyed container.
public struct KeyedWireFields<Key: CodingKey>: WireFieldReader {
    let container: KeyedDecodingContainer<Key>

    public init(_ container: KeyedDecodingContainer<Key>) { self.container = container }

    public func string(_ key: Key) throws -> String? { try container.decodeIfPresent(String.self, forKey: key) }
    public func bool(_ key: Key) throws -> Bool? { try container.decodeIfPresent(Bool.self, forKey: key) }
    public func number(_ key: Key) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: key) }

    public func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try container.decodeIfPresent(type, forKey: key)
    }

    public func nested<T: WireFieldsDecodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try container.decodeIfPresent(type, forKey: key)
    }
}

/// The members of a parsed JSON object, read with ``JSONValueDecoder``'s own checks and errors, without a
/// container per object or a generic call per member.
public struct JSONValueFields<Key: CodingKey>: WireFieldReader {
    let object: JSONObject
    /// The object's path, built once (each member's is built only for an error).
    let codingPath: [any CodingKey]

    /// The fields of the object `decoder` holds; a type mismatch (JSONDecoder's) when it holds no object.
    init(_ decoder: JSONValueDecoder) throws {
        guard case .object(let object) = decoder.value else { throw decoder.mismatch([String: Any].self) }
        self.object = object
        codingPath = decoder.codingPath
    }

    /// The member's decoder, unless the member is absent or null.
    private func member(_ key: Key) -> JSONValueDecoder? {
        guard let value = object[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return JSONValueDecoder(value, in: codingPath, key: key)
    }

    public func string(_ key: Key) throws -> String? { try member(key)?.string() }
    public func bool(_ key: Key) throws -> Bool? { try member(key)?.bool() }
    public func number(_ key: Key) throws -> Double? { try member(key)?.float(Double.self) }

    public func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? { try member(key)?.decodeValue(type) }

    public func nested<T: WireFieldsDecodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let decoder = member(key) else { return nil }
        return try T(reading: JSONValueFields<T.FieldKey>(decoder))
    }
}
