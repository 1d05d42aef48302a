/// Folders whose sessions the person chose to hide: hidden from the list, so hidden from the card.
///
/// Matching is on path boundaries: `/a/b` hides `/a/b` and `/a/b/c`, never `/a/bc`.
public struct HiddenDirs: Hashable, Sendable, Codable, ExpressibleByArrayLiteral {
    public private(set) var paths: [String]

    public init(_ paths: [String] = []) {
        self.paths = paths.map(Self.normalized).filter { !$0.isEmpty }
    }

    public init(arrayLiteral elements: String...) { self.init(elements) }

    public init(from decoder: any Decoder) throws { self.init(try [String](from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try paths.encode(to: encoder) }

    /// Whether `cwd` is one of the hidden folders or inside one.
    public func hides(_ cwd: String) -> Bool {
        guard !paths.isEmpty, !cwd.isEmpty else { return false }
        let path = Self.normalized(cwd)
        return paths.contains { hidden in
            hidden == "/" || path == hidden || path.hasPrefix(hidden + "/")
        }
    }

    /// Drops trailing slashes (but keeps a lone root) so `/a/b/` and `/a/b` match alike.
    static func normalized(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
