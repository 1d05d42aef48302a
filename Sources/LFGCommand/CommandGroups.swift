/// What `lfg` says when the words do not name a command: a command group's own help (`lfg hooks`,
/// `lfg bench --help`) and a did-you-mean for a near miss (`lfg hooks instal`).
enum CommandGroups {
    /// The version `lfg --version` prints: defined here only.
    static let version = "0.12.0"

    /// The commands whose name starts with `group` as its first word (`hooks` -> hooks install, ...).
    static func members(of group: String) -> [any Command.Type] {
        LFG.commands.filter { command in
            let words = command.name.split(separator: " ")
            return words.count > 1 && words[0] == group
        }
    }

    /// A group's help: its commands, one line each.
    static func usage(of group: String) -> String {
        let members = members(of: group)
        var width = 0
        for member in members { width = max(width, member.name.count) }
        var lines: [String] = []
        for member in members {
            lines.append("  " + member.name + String(repeating: " ", count: width + 2 - member.name.count) + member.summary)
        }
        return "Usage: lfg \(group) COMMAND [OPTIONS]   (lfg \(group) COMMAND --help for its options)\n\nCommands:\n"
            + lines.joined(separator: "\n")
    }

    /// The full command name nearest to what was typed, when it is close enough to be a slip.
    static func suggestion(for arguments: [String]) -> String? {
        var words: [String] = []
        for argument in arguments {
            if argument.hasPrefix("-") || words.count == 2 { break }
            words.append(argument)
        }
        var best: String?
        var bestCost = 3
        var bestWords = 0
        for command in LFG.commands {
            let count = command.name.split(separator: " ").count
            let typed = words.prefix(count).joined(separator: " ")
            let cost = editDistance(typed, command.name)
            // On a tie the longer name wins: `hooks instal` means `hooks install`, not `hook`.
            if cost < bestCost || (cost == bestCost && best != nil && count > bestWords) {
                best = command.name
                bestCost = cost
                bestWords = count
            }
        }
        return best
    }

    /// Levenshtein distance between two short texts.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        var previous = Array(0...right.count)
        for index in 0..<left.count {
            var current = [index + 1]
            for other in 0..<right.count {
                let substitution = previous[other] + (left[index] == right[other] ? 0 : 1)
                current.append(min(previous[other + 1] + 1, current[other] + 1, substitution))
            }
            previous = current
        }
        return previous[right.count]
    }
}
