#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FleetCore

/// `lfg-hook [--agent NAME]`: what `lfg hooks install` puts in the agent's settings when `lfg-hook` sits
/// beside `lfg`. It reads the event, records it and rings `lfg host` (``FastHook``), and replaces itself
/// with `lfg hook` only for what it leaves (no host listening, a question for the phone, a problem to
/// explain). Like `lfg hook` it never fails the agent: always exit status 0, nothing on stdout.
public enum FastHookCommand {
    /// The largest input read (a `PostToolUse` can carry a whole file); the rest goes unread to `lfg hook`.
    static let inputLimit = 64 << 20

    /// Runs one hook call with `arguments` (`argv`, the program first); returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        let agentName = arguments.firstIndex(of: "--agent").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        let agentArguments = agentName.map { ["--agent", $0] } ?? []
        let input = readAll(0, limit: inputLimit) ?? []
        let settings = HookSettings(environment: HookSettings.processEnvironment(), readFile: HookSettings.readTextFile)
        let lfg = FullHookHandOff.lfgExecutable(besides: arguments.first ?? "lfg-hook")
        func handOff(_ extra: [String], input: [UInt8]?) -> Int32 {
            guard let lfg else {
                complain("no lfg executable beside \(arguments.first ?? "lfg-hook"); reinstall with `lfg hooks install`")
                return 0
            }
            complain(FullHookHandOff.exec(lfg: lfg, arguments: ["hook"] + agentArguments + extra, input: input, home: settings.home))
            return 0
        }
        guard let agent = agentName.map(AgentAdapters.named) ?? AgentAdapters.default else { return handOff([], input: input) }
        let doorbell = HostDoorbell(home: settings.home)
        let hook = FastHook(
            home: settings.home, host: settings.host(hostName: HookSettings.machineName()), agent: agent,
            ring: { doorbell.ring(sessionKey: $0) }, agentProcess: { AgentProcess.agent() },
            wallNanoseconds: InboxEntry.wallNanoseconds, processID: getpid())
        let outcome = hook.handle(input)
        for problem in outcome.problems { complain(problem) }
        switch outcome.next {
        case .done: return 0
        case .deliver(let key): return handOff(["--deliver-session", key], input: nil)
        case .fullPath: return handOff([], input: input)
        }
    }

    /// One line on stderr (Claude Code shows a hook's stderr only in its debug log).
    static func complain(_ message: String) {
        let line = Array("lfg-hook: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
