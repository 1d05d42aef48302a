extension JSONValue {
    /// The value as indented JSON (two spaces, `"key": value`), as Claude Code writes its settings;
    /// numbers print as their literal text and non-ASCII text stays as is.
    public func prettyPrinted() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    /// The value as JSON on one line with no spaces (for files nobody edits by hand).
    public func compactPrinted() -> String {
        switch self {
        case .null, .bool, .number, .string: return prettyPrinted()
        case .array(let elements): return "[" + elements.map { $0.compactPrinted() }.joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.members.map { Self.quoted($0.key) + ":" + $0.value.compactPrinted() }.joined(separator: ",") + "}"
        }
    }

    private func write(to output: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closingPad = String(repeating: "  ", count: indent)
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let literal): output += literal
        case .string(let text): output += Self.quoted(text)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (position, element) in elements.enumerated() {
                output += pad
                element.write(to: &output, indent: indent + 1)
                output += position == elements.count - 1 ? "\n" : ",\n"
            }
            output += closingPad + "]"
        case .object(let object):
            guard !object.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            for (position, member) in object.members.enumerated() {
                output += pad + Self.quoted(member.key) + ": "
                member.value.write(to: &output, indent: indent + 1)
                output += position == object.members.count - 1 ? "\n" : ",\n"
            }
            output += closingPad + "}"
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
