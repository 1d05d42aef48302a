#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import HookIntake

// `lfg-hook [--agent NAME]`: the hook's cheap start (no Foundation). Only wiring lives here; the rules
// are in HookIntake.FastHookCommand. Always exits 0.
exit(FastHookCommand.run(arguments: Array(CommandLine.arguments)))
