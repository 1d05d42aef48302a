/// The arguments after a command's name, consumed option by option.
///
/// Every accessor removes what it reads; ``finish()`` rejects whatever is left, so an unknown
/// or misspelt option is a usage error instead of being silently ignored.
public struct ArgumentList: Sendable, Equatable {
    public private(set) var remaining: [String]

    public init(_ arguments: [String]) { remaining = arguments }

    /// Whether `name` (e.g. `--json`) was given; removes every occurrence.
    public mutating func flag(_ name: String) -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == name }
        return remaining.count != before
    }

    /// Every value given for `name`, in order (`--without a --without b` or `--without=a`).
    public mutating func values(_ name: String) throws(UsageError) -> [String] {
        var found: [String] = []
        var kept: [String] = []
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == name {
                guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
                found.append(remaining[index + 1])
                index += 2
                continue
            }
            if argument.hasPrefix(name + "=") {
                found.append(String(argument.dropFirst(name.count + 1)))
            } else {
                kept.append(argument)
            }
            index += 1
        }
        remaining = kept
        return found
    }

    /// The value given for `name`, or nil; giving it twice is a usage error.
    public mutating func value(_ name: String) throws(UsageError) -> String? {
        let all = try values(name)
        guard all.count <= 1 else { throw UsageError("\(name) was given \(all.count) times; give it once") }
        return all.first
    }

    /// An integer option within `range`, or nil when absent.
    public mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// The next positional argument (one that does not start with `-`), removed, or nil.
    public mutating func positional() -> String? {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("-") }) else { return nil }
        return remaining.remove(at: index)
    }

    /// Rejects any argument nobody consumed.
    public func finish() throws(UsageError) {
        if let first = remaining.first {
            throw UsageError("unknown argument '\(first)'")
        }
    }
}

extension ArgumentList {
    /// `--port N`: the port of the running local `lfg serve` that an owner command calls (default
    /// `ServeCommand.defaultPort`). One rule for every such command.
    mutating func localServerPort() throws(UsageError) -> Int {
        try integer("--port", in: 1...65535) ?? ServeCommand.defaultPort
    }
}
