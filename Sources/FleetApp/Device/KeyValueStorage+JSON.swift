import Foundation

extension KeyValueStorage {
    /// The JSON value kept under `key`, or nil when none is; throws when one is kept but does not decode.
    public func decoded<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        guard let text = string(forKey: key) else { return nil }
        return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    /// Keeps `value` under `key` as JSON text.
    public func setEncoded(_ value: some Encodable, forKey key: String) throws {
        set(String(decoding: try JSONEncoder().encode(value), as: UTF8.self), forKey: key)
    }
}
