/// One value of a decision-log field.
public enum LogValue: Hashable, Sendable, Codable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case strings([String])

    /// The JSON type a field declares (`LogField.kind`).
    public enum Kind: String, Hashable, Sendable {
        case string, number, integer, bool, strings
    }

    public var kind: Kind {
        switch self {
        case .string: .string
        case .number: .number
        case .integer: .integer
        case .bool: .bool
        case .strings: .strings
        }
    }

    /// Whether this value is of `kind` as JSON reads it (an integer is also a number).
    public func fits(_ kind: Kind) -> Bool { self.kind == kind || (kind == .number && self.kind == .integer) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String].self) {
            self = .strings(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}
