/// Bad input, described by the field that is wrong, for `lfg reduce` and the HTTP API's 400s.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The dotted path of the bad field (`sessions[2].busy`), or nil when the whole input is bad.
    public var field: String?
    /// What is wrong, in words a person can act on.
    public var message: String

    public init(field: String?, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String {
        guard let field else { return message }
        return "\(field): \(message)"
    }

    /// Describes a `DecodingError` by the field it happened at.
    public init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(field: Self.path(context.codingPath), message: "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            self.init(field: Self.path(context.codingPath), message: "expected \(Self.name(of: type)), found null")
        case .keyNotFound(let key, let context):
            self.init(field: Self.path(context.codingPath + [key]), message: "is required")
        case .dataCorrupted(let context):
            let detail = context.debugDescription.isEmpty ? "is not valid" : context.debugDescription
            let isWholeDocument = context.codingPath.isEmpty
            self.init(field: isWholeDocument ? nil : Self.path(context.codingPath),
                      message: isWholeDocument ? "not valid JSON: \(detail)" : detail)
        @unknown default:
            self.init(field: nil, message: "\(error)")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String? {
        guard !codingPath.isEmpty else { return nil }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    static func name(of type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "a boolean"
        case is String.Type, is SessionID.Type, is HostID.Type: "a string"
        case is Double.Type, is Int.Type: "a number"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
