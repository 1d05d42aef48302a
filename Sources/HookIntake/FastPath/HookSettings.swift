#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FleetCore

/// The settings every hook reads, resolved by one rule for `lfg hook` and `lfg-hook`: the process
/// environment first, then `$LFG_HOME/.env`.
public struct HookSettings: Sendable {
    /// `$LFG_HOME` (default `$HOME/.lfg`).
    public var home: String
    /// The process environment.
    public var environment: [String: String]
    /// `$LFG_HOME/.env`, parsed (empty when missing).
    public var dotEnv: [String: String]

    /// Resolves `$LFG_HOME` from `environment` and reads its `.env` through `readFile` (path -> text).
    public init(environment: [String: String], readFile: (String) -> String?) {
        self.environment = environment
        home = Self.home(environment: environment)
        dotEnv = readFile(home + "/.env").map(DotEnv.parse) ?? [:]
    }

    /// `LFG_HOME`, else `$HOME/.lfg` (`./.lfg` without a home).
    public static func home(environment: [String: String]) -> String {
        if let home = environment["LFG_HOME"], !home.isEmpty { return home }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "."
        return user + "/.lfg"
    }

    /// A setting: the environment's non-empty value, else `.env`'s, else nil.
    public func value(_ name: String) -> String? {
        if let value = environment[name], !value.isEmpty { return value }
        if let value = dotEnv[name], !value.isEmpty { return value }
        return nil
    }

    /// The host name reports carry: `LFG_HOST`, else `hostName` (this machine's), else `local`.
    public func host(hostName: String?) -> HostID {
        if let name = value("LFG_HOST") { return HostID(name) }
        if let hostName, !hostName.isEmpty { return HostID(hostName) }
        return .local
    }

    /// This machine's host name (`gethostname`: no DNS lookup, which could stall a hook).
    public static func machineName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The process environment (`environ`).
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Reads a small text file (nil when missing or unreadable).
    public static func readTextFile(_ path: String) -> String? {
        readWholeFile(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
