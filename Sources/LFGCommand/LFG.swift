import Foundation

/// The `lfg` executable: picks the subcommand, parses it, runs it and maps failures to exit statuses.
public enum LFG {
    /// Every subcommand, in the order `lfg --help` lists them.
    public static let commands: [any Command.Type] = [
        ServeCommand.self,
        LoginLinkCommand.self,
        PairCommand.self,
        PairListCommand.self,
        PairRevokeCommand.self,
        AccountsCreateCommand.self,
        AccountsListCommand.self,
        AccountsRevokeCommand.self,
        ReduceCommand.self,
        DiagnoseCommand.self,
        SimulateCommand.self,
        BenchAPNsCommand.self,
        BenchServeCommand.self,
        BenchAnswersCommand.self,
        BenchSealCommand.self,
        HookCommand.self,
        HooksInstallCommand.self,
        HooksUninstallCommand.self,
        HooksDrainCommand.self,
        HostCommand.self,
        HostInstallCommand.self,
        HostUninstallCommand.self,
        APNsMockCommand.self,
        PushCommand.self,
        ChannelsCreateCommand.self,
        ChannelsListCommand.self,
        ChannelsReadCommand.self,
        ChannelsDeleteCommand.self,
    ]

    /// Runs `lfg` with `arguments` (without the program name); returns the exit status.
    public static func main(arguments: [String], context: CommandContext) async -> Int32 {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            context.write(overview() + "\n")
            return arguments.isEmpty ? 2 : 0
        }
        if arguments == ["--version"] || arguments == ["version"] {
            context.write("lfg \(CommandGroups.version)\n")
            return 0
        }
        guard let (command, rest) = select(arguments) else {
            return unknown(arguments, context)
        }
        if rest.contains("--help") || rest.contains("-h") {
            context.write(command.usage + "\n")
            return 0
        }
        var list = ArgumentList(rest)
        let parsed: any Command
        do {
            parsed = try command.init(parsing: &list)
            try list.finish()
        } catch {
            context.writeError("lfg \(command.name): \(error.message)\n")
            return 2
        }
        do {
            return try await parsed.run(context)
        } catch let failure as CommandFailure {
            context.writeError("lfg \(command.name): \(failure.message)\n")
            return 1
        } catch {
            context.writeError("lfg \(command.name): \(error)\n")
            return 1
        }
    }

    /// No command matched: a group's help (exit 0 when asked for, else 2), or a did-you-mean.
    static func unknown(_ arguments: [String], _ context: CommandContext) -> Int32 {
        let group = arguments[0]
        let rest = Array(arguments.dropFirst())
        let isGroup = !CommandGroups.members(of: group).isEmpty
        if isGroup, rest.isEmpty || rest.first == "--help" || rest.first == "-h" {
            let asked = !rest.isEmpty
            if asked { context.write(CommandGroups.usage(of: group) + "\n") } else {
                context.writeError(CommandGroups.usage(of: group) + "\n")
            }
            return asked ? 0 : 2
        }
        let typed = isGroup && !rest.isEmpty ? "\(group) \(rest[0])" : group
        var message = "lfg: unknown command '\(typed)'"
        if let nearest = CommandGroups.suggestion(for: arguments) { message += "; did you mean 'lfg \(nearest)'?" }
        context.writeError(message + "; run 'lfg --help' for the list\n")
        return 2
    }

    /// The command whose name matches the longest prefix of `arguments`, and the arguments after it.
    static func select(_ arguments: [String]) -> (any Command.Type, [String])? {
        let ranked = commands.sorted { $0.name.split(separator: " ").count > $1.name.split(separator: " ").count }
        for command in ranked {
            let words = command.name.split(separator: " ").map(String.init)
            if arguments.count >= words.count, Array(arguments.prefix(words.count)) == words {
                return (command, Array(arguments.dropFirst(words.count)))
            }
        }
        return nil
    }

    static func overview() -> String {
        var width = 0
        for command in commands { width = max(width, command.name.count) }
        var lines: [String] = []
        for command in commands {
            let name = command.name
            lines.append("  " + name + String(repeating: " ", count: width + 2 - name.count) + command.summary)
        }
        return """
            lfg: every coding agent you run, on your iPhone's Lock Screen.

            Usage: lfg COMMAND [OPTIONS]   (lfg COMMAND --help for its options; lfg --version)

            Commands:
            \(lines.joined(separator: "\n"))
            """
    }
}
