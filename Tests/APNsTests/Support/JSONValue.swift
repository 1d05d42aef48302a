import Foundation

/// A parsed JSON document, for comparing payloads structurally rather than as strings.
enum JSONValue: Equatable, Decodable, CustomStringConvertible {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(parsing bytes: [UInt8]) throws { self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }

    init(parsing text: String) throws { try self.init(parsing: Array(text.utf8)) }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var keys: Set<String> {
        if case .object(let object) = self { return Set(object.keys) }
        return []
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .object(let object): "{" + object.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        case .array(let array): "[" + array.map(\.description).joined(separator: ", ") + "]"
        case .string(let string): "\"\(string)\""
        case .number(let number): "\(number)"
        case .bool(let bool): "\(bool)"
        case .null: "null"
        }
    }
}
