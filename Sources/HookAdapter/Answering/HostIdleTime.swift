import Foundation

/// How long the host's keyboard and mouse have been idle, in seconds; nil when it cannot be known.
public protocol HostIdleClock: Sendable {
    func idleSeconds() -> Double?
}

/// The machine's own idle time: macOS's `HIDIdleTime` (read from `ioreg`, nanoseconds since the last
/// keyboard or mouse event). Linux has no equivalent that works without a display server (X11's
/// screensaver extension needs a session; Wayland offers none to a background process), so there it
/// is unknown, which the policy reads as "active": under the default `idle:N` the hook never waits on
/// Linux; set `LFG_ANSWER_POLICY=always` to wait anyway.
public struct SystemIdleClock: HostIdleClock {
    /// Where `ioreg` lives on macOS; absent elsewhere.
    static let ioreg = "/usr/sbin/ioreg"

    public init() {}

    public func idleSeconds() -> Double? {
        guard FileManager.default.isExecutableFile(atPath: Self.ioreg) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.ioreg)
        process.arguments = ["-c", "IOHIDSystem", "-d", "4", "-r", "-k", "HIDIdleTime"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Self.parse(String(decoding: data, as: UTF8.self))
    }

    /// The first `"HIDIdleTime" = N` of `ioreg` output, in seconds.
    static func parse(_ output: String) -> Double? {
        for line in output.split(separator: "\n") where line.contains("\"HIDIdleTime\"") {
            guard let value = line.split(separator: "=").last.flatMap({ UInt64($0.trimmingCharacters(in: .whitespaces)) })
            else { continue }
            return Double(value) / 1_000_000_000
        }
        return nil
    }
}
