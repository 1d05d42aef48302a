import FleetCore
import Foundation

/// ``WireJSON``'s encoder: the bytes Foundation's `JSONEncoder` writes with `[.sortedKeys,
/// .withoutEscapingSlashes]` on Linux (keys in UTF-8 byte order, `1.0` written `1`, control characters
/// as `\uXXXX`), at a fraction of its cost.
///
/// Why our own: under ingest load (bench/ingest.sh) JSONEncoder was a fifth of the server's time, for
/// the answer of every `PUT /api/sessions/{sid}`, its stored row and every `GET /api/sessions`. It builds
/// a tree of small values, then writes it once; a test compares it byte for byte with JSONEncoder.
final class WireJSONEncoder: Encoder {
    /// The path of the value that holds this one, and this value's key in it: the whole path is built
    /// only when asked for (an error, a type that reads it), so a nested value costs no array of its own.
    fileprivate let parentPath: [any CodingKey]
    fileprivate let key: (any CodingKey)?
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded so far (nil: nothing yet).
    fileprivate(set) var node: WireNode?

    init(parentPath: [any CodingKey] = [], key: (any CodingKey)? = nil) {
        self.parentPath = parentPath
        self.key = key
    }

    /// `value` as JSON bytes.
    static func encode(_ value: some Encodable) throws -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        try node(for: value, in: [], key: nil).write(into: &bytes)
        return Data(bytes)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(WireKeyedContainer<Key>(object: object(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        WireUnkeyedContainer(array: array(), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { WireSingleValueContainer(encoder: self) }

    /// The object being encoded (a second `container(keyedBy:)` adds to the first, as JSONEncoder's does).
    private func object() -> WireObject {
        if case .object(let object) = node { return object }
        let object = WireObject()
        node = .object(object)
        return object
    }

    private func array() -> WireArray {
        if case .array(let array) = node { return array }
        let array = WireArray()
        node = .array(array)
        return array
    }

    fileprivate func set(_ node: WireNode) { self.node = node }

    /// The node for one value (at `key` inside the value at `parentPath`, or in an array there when `key`
    /// is nil): the values JSONEncoder treats specially by type, else the value's own encoding.
    static func node<T: Encodable>(for value: T, in parentPath: [any CodingKey], key: (any CodingKey)?) throws
        -> WireNode
    {
        // Type comparisons, not `as?` casts: a failed dynamic cast per kind would cost more than the encoding.
        if T.self == String.self { return .string(value as! String) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }  // JSONEncoder's default
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self { return .number((value as! Decimal).description) }
        let encoder = WireJSONEncoder(parentPath: parentPath, key: key)
        try value.encode(to: encoder)
        return encoder.node ?? .object(WireObject())  // JSONEncoder writes {} for a value that wrote nothing
    }
}

/// One JSON value under construction; objects and arrays are shared boxes their containers fill.
/// Not `indirect`: the boxes are classes already, and an indirect case would cost an allocation per value.
enum WireNode {
    case null
    case bool(Bool)
    /// The number's text, as written.
    case number(String)
    case string(String)
    case object(WireObject)
    case array(WireArray)
    /// What a super-encoder encodes, read when written.
    case deferred(WireJSONEncoder)

    /// A floating-point number as JSONEncoder writes it (``WireJSONWriter/numberText(_:)``); NaN and
    /// infinities are refused (JSON has no such numbers).
    static func float<F: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: F, at codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> WireNode {
        guard let text = WireJSONWriter.numberText(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath(), debugDescription: "\(value) is not a JSON number"))
        }
        return .number(text)
    }

    func write(into bytes: inout [UInt8]) throws {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): WireJSONWriter.appendString(text, to: &bytes)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                WireJSONWriter.appendString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try member.value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .deferred(let encoder): try (encoder.node ?? .object(WireObject())).write(into: &bytes)
        }
    }
}

/// An object's members, kept in UTF-8 byte order of their keys as they are set (so writing needs no
/// sort); a key set twice keeps its last value, as JSONEncoder's does.
final class WireObject {
    /// Each member with its key's ``SortKey`` (most comparisons end on these integers), in key order.
    private(set) var members: [(key: String, value: WireNode, sortKey: SortKey)] = []

    init() {
        // Room for a session listing's members at once: growing 1, 2, 4, 8, 16 cost an allocation and a
        // copy each (bench/ingest.sh's profile).
        members.reserveCapacity(16)
    }

    func set(_ key: String, _ value: WireNode) {
        let sortKey = SortKey(key)
        // Members usually arrive in declaration order, a few places from sorted: walk back from the end.
        var index = members.count
        while index > 0, sortKey.precedes(members[index - 1].sortKey, key, members[index - 1].key) { index -= 1 }
        if index > 0, members[index - 1].sortKey.prefix == sortKey.prefix, members[index - 1].key == key {
            members[index - 1].value = value
        } else if index == members.count {
            members.append((key, value, sortKey))
        } else {
            members.insert((key, value, sortKey), at: index)
        }
    }

    /// A key's first 8 UTF-8 bytes as a big-endian integer (zero-padded) and its length, so UTF-8 byte
    /// order (JSONEncoder's key order) is integer order unless the prefixes are equal.
    struct SortKey {
        let prefix: UInt64
        let count: Int

        init(_ key: String) {
            // A key is nearly always a literal or native string: its bytes are one buffer.
            self = key.utf8.withContiguousStorageIfAvailable(Self.init(bytes:)) ?? Self(bytes: Array(key.utf8))
        }

        init(bytes: some Collection<UInt8>) {
            var prefix: UInt64 = 0
            var shift = 56
            for byte in bytes.prefix(8) {
                prefix |= UInt64(byte) << shift
                shift -= 8
            }
            self.prefix = prefix
            self.count = bytes.count
        }

        /// Whether `key` (this sort key's) comes before `otherKey` (`other`'s) in UTF-8 byte order.
        func precedes(_ other: SortKey, _ key: String, _ otherKey: String) -> Bool {
            if prefix != other.prefix { return prefix < other.prefix }
            if count <= 8 || other.count <= 8 { return count < other.count }
            return key.utf8.lexicographicallyPrecedes(otherKey.utf8)
        }
    }
}

/// An array's elements, in order.
final class WireArray {
    var elements: [WireNode] = []
}

private struct WireKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: WireObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { object.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) { object.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Int, forKey key: Key) { object.set(key.stringValue, .number(String(value))) }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(key.stringValue, try .float(value, at: codingPath + [key]))
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(key.stringValue, try .float(value, at: codingPath + [key]))
    }

    mutating func encode(_ value: Int8, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { integer(value, key) }

    private func integer(_ value: some BinaryInteger, _ key: Key) {
        object.set(key.stringValue, .number(String(value)))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try WireJSONEncoder.node(for: value, in: codingPath, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = WireObject()
        object.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(WireKeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        object.set(key.stringValue, .array(nested))
        return WireUnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = WireJSONEncoder(parentPath: codingPath)
        object.set(name, .deferred(encoder))
        return encoder
    }
}

private struct WireUnkeyedContainer: UnkeyedEncodingContainer {
    let array: WireArray
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

    mutating func encodeNil() { array.elements.append(.null) }
    mutating func encode(_ value: Bool) { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) { array.elements.append(.string(value)) }
    mutating func encode(_ value: Int) { array.elements.append(.number(String(value))) }
    mutating func encode(_ value: Double) throws { array.elements.append(try .float(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { array.elements.append(try .float(value, at: codingPath)) }
    mutating func encode(_ value: Int8) { integer(value) }
    mutating func encode(_ value: Int16) { integer(value) }
    mutating func encode(_ value: Int32) { integer(value) }
    mutating func encode(_ value: Int64) { integer(value) }
    mutating func encode(_ value: UInt) { integer(value) }
    mutating func encode(_ value: UInt8) { integer(value) }
    mutating func encode(_ value: UInt16) { integer(value) }
    mutating func encode(_ value: UInt32) { integer(value) }
    mutating func encode(_ value: UInt64) { integer(value) }

    private func integer(_ value: some BinaryInteger) { array.elements.append(.number(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try WireJSONEncoder.node(for: value, in: codingPath, key: nil))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = WireObject()
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(WireKeyedContainer<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        array.elements.append(.array(nested))
        return WireUnkeyedContainer(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = WireJSONEncoder(parentPath: codingPath)
        array.elements.append(.deferred(encoder))
        return encoder
    }
}

private struct WireSingleValueContainer: SingleValueEncodingContainer {
    let encoder: WireJSONEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.set(.null) }
    mutating func encode(_ value: Bool) { encoder.set(.bool(value)) }
    mutating func encode(_ value: String) { encoder.set(.string(value)) }
    mutating func encode(_ value: Int) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Double) throws { encoder.set(try .float(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { encoder.set(try .float(value, at: codingPath)) }
    mutating func encode(_ value: Int8) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int16) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int32) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: Int64) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt8) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt16) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt32) { encoder.set(.number(String(value))) }
    mutating func encode(_ value: UInt64) { encoder.set(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        // The same path as this encoder's, without building it.
        encoder.set(try WireJSONEncoder.node(for: value, in: encoder.parentPath, key: encoder.key))
    }
}
