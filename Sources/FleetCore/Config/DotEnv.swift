/// `$LFG_HOME/.env`, the file every `lfg` part reads its settings from after the environment.
///
/// One parser for the server and the hook, so a line one of them understands the other does too.
public enum DotEnv {
    /// `NAME=value` lines; `#` comments, blank lines, an `export ` prefix and surrounding quotes allowed.
    public static func parse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = trimmed(rawLine)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)) }
            guard let split = line.firstIndex(of: "=") else { continue }
            let name = trimmed(line[..<split])
            var value = trimmed(line[line.index(after: split)...])
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[name] = value
        }
        return values
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
