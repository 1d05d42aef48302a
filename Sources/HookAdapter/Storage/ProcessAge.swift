#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// How long ago this process started, so a hook's time budget counts from its start: under a burst
/// of hooks, loading the executable alone can take a good part of the budget.
public enum ProcessAge {
    /// Seconds since the process started (10 ms resolution); 0 where `/proc` does not say.
    public static func seconds() -> Double {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
                let afterName = stat.range(of: ") ", options: .backwards)?.upperBound
            else { return 0 }
            // Fields after the command name start at field 3 (state); starttime is field 22.
            let fields = stat[afterName...].split(separator: " ")
            guard fields.count > 19, let ticks = Double(fields[19]) else { return 0 }
            var now = timespec()
            guard clock_gettime(CLOCK_BOOTTIME, &now) == 0 else { return 0 }
            let started = ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
            return max(0, Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - started)
        #else
            return 0
        #endif
    }
}
