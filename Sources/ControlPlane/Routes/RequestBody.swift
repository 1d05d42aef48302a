import FleetCore
import Foundation

/// Decoding request bodies into values, with errors that name the field.
enum RequestBody {
    /// Decodes a JSON object body; an empty body reads as `{}` when `isEmptyAllowed`.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, isEmptyAllowed: Bool = false)
        throws(InputError) -> T
    {
        // One copy of the bytes, which the parser reads anyway (iterating `Data` byte by byte is slow).
        var bytes = [UInt8](body)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            bytes = isEmptyAllowed ? Array("{}".utf8) : []
        }
        guard !bytes.isEmpty else { throw InputError(field: nil, message: "the body is empty; send a JSON object") }
        let value = try validate(bytes: bytes)
        do {
            // A type read field by field is read straight from the parsed value: the same rules and errors as
            // its `init(from:)`, without a container per object (a report, every PUT /api/sessions/{sid}).
            if let fieldsType = T.self as? any WireFieldsDecodable.Type, let decoded = try fieldsType.init(json: value) as? T {
                return decoded
            }
            return try JSONValueDecoder.decode(T.self, from: value)
        } catch let error as DecodingError {
            throw InputError(error)
        } catch {
            throw InputError(field: nil, message: "the body could not be read as this request's JSON object")
        }
    }

    /// The body as a JSON object, or an error saying it is not one.
    ///
    /// The strict parser reads it first (`FleetCore.JSONParser`: no trailing commas, repeated keys,
    /// byte-order mark or UTF-16, and "nested too deep" past its depth), so what Foundation decodes
    /// afterwards is never ambiguous.
    static func object(_ data: Data) throws(InputError) -> [String: Any] {
        try validate(data)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw InputError(field: nil, message: "not valid JSON; send a JSON object")
        }
        return object
    }

    /// Refuses `data` unless it is one strict JSON object; returns it parsed.
    @discardableResult
    static func validate(_ data: Data) throws(InputError) -> JSONValue { try validate(bytes: [UInt8](data)) }

    private static func validate(bytes: [UInt8]) throws(InputError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: bytes)
        } catch {
            throw InputError(field: nil, message: "not valid JSON (\(error)); send a JSON object")
        }
        guard case .object = value else {
            throw InputError(field: nil, message: "the body must be a JSON object, not \(value.kindName)")
        }
        return value
    }
}

extension KeyedDecodingContainer {
    /// A token field, by the one token rule (``TokenHex``): whole bytes of hex, returned lower-case.
    func decodeToken(_ key: Key) throws -> String {
        let text = try decode(String.self, forKey: key)
        do {
            return try TokenHex.validated(text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.description)
        }
    }

    /// An optional token field (absent or null: nil).
    func decodeTokenIfPresent(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeToken(key)
    }

    /// An APNs environment: `sandbox` or `production`.
    func decodeEnvironment(_ key: Key) throws -> PushEnvironment {
        let text = try decode(String.self, forKey: key)
        guard let env = PushEnvironment(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "unknown env '\(text)'; use sandbox or production")
        }
        return env
    }

    /// An optional non-empty device id.
    func decodeDeviceIdIfPresent(_ key: Key) throws -> DeviceID? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        if let problem = IdentifierRule.problem(text) {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: problem)
        }
        return DeviceID(text)
    }
}
