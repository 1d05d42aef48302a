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
            let detail = Self.plainDetail(context.debugDescription)
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

    /// What a type is called in JSON words; never a Swift type name (`Dictionary<String, Any>`).
    static func name(of type: Any.Type) -> String {
        if let choice = type as? any WireChoice.Type { return "one of \(choice.choicesText)" }
        switch type {
        case is Bool.Type: return "a boolean"
        case is String.Type, is any StringIdentifier.Type: return "a string"
        case is Double.Type, is Int.Type, is Float.Type: return "a number"
        default: break
        }
        let swiftName = "\(type)"
        if swiftName.hasPrefix("Array<") || swiftName.hasPrefix("[") && !swiftName.contains(":") { return "an array" }
        if swiftName.hasPrefix("Dictionary<") || swiftName.hasPrefix("[") { return "an object" }
        return "a value of another type"
    }

    /// Foundation's wording without Swift names: "Cannot initialize Kind from invalid String value x"
    /// becomes "unknown value 'x'"; anything else that names no type is kept.
    static func plainDetail(_ detail: String) -> String {
        guard !detail.isEmpty else { return "is not valid" }
        let words = detail.split(separator: " ", omittingEmptySubsequences: false)
        if detail.hasPrefix("Cannot initialize "), let index = words.firstIndex(of: "value") {
            return "unknown value '\(words[(index + 1)...].joined(separator: " "))'"
        }
        return detail
    }
}
