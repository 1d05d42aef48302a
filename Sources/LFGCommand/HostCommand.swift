import Foundation
import HookAdapter
import HostAgent

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `lfg host`: runs the per-machine agent (heartbeats, hook delivery, agent process watch).
///
/// It resolves the configuration exactly as the hooks do (``HookConfiguration``: same URL, token, host
/// name and `$LFG_HOME`), then replaces itself with the Foundation-free resident process built next to
/// `lfg` (``residentProgram(for:)``), so what stays running is a few MB, not this process's ~30.
public struct HostCommand: Command {
    public static let name = "host"
    public static let summary = "run the per-machine agent: heartbeats, hook delivery, agent process watch"
    public static let usage = """
        Usage: lfg host [--interval SECONDS]
               lfg host install | uninstall   (run it as a systemd user unit / launchd agent)

        Runs in the foreground until stopped (SIGTERM or Ctrl-C):
          - heartbeats PUT /api/hosts/{LFG_HOST} every 20 s with a 60 s TTL, so a machine that sleeps or
            goes offline reads 'unknown' on the card (never zero, never ended);
          - delivers what the hooks recorded at once when a hook rings $LFG_HOME/host.sock, and when the
            server answers again after an outage (through `lfg hooks drain`);
          - watches every agent process the hooks recorded; when one is gone (crash, kill -9, closed
            terminal), its session ends as a clean exit would (archived: it leaves the card).
          --interval SECONDS   heartbeat every SECONDS (TTL 3x; default 20)
        Reads LFG_URL, LFG_AUTH_TOKEN, LFG_HOST and LFG_HOME like `lfg hook` (environment, then $LFG_HOME/.env).
        """

    let interval: Double?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        let text = try arguments.value("--interval")
        if let text {
            guard let seconds = Double(text), seconds >= 1 else {
                throw UsageError("--interval takes a number of seconds (at least 1), not '\(text)'")
            }
            interval = seconds
        } else {
            interval = nil
        }
    }

    /// The resident binary for this server: `lfg-host` (plain sockets, under 5 MB) for `http://`,
    /// `lfg-host-tls` (libcurl, ~16 MB) only where TLS is needed.
    public static func residentProgram(for address: ServerAddress) -> String {
        address.needsTLS ? "lfg-host-tls" : "lfg-host"
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let configuration = HookConfiguration.resolve(
            environment: context.environment, hostName: HookCommand.machineName()
        ) { path in FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }
        let lfg = HookSettingsLocation.currentExecutable()
        let address: ServerAddress
        do { address = try ServerAddress(parsing: configuration.url) } catch { throw CommandFailure("\(error)") }
        let resident = URL(fileURLWithPath: lfg).deletingLastPathComponent().appendingPathComponent(Self.residentProgram(for: address)).path
        guard FileManager.default.isExecutableFile(atPath: resident) else {
            throw CommandFailure("\(resident) is missing: it is built with lfg (swift build builds both); reinstall lfg")
        }
        try FileManager.default.createDirectory(atPath: configuration.home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var arguments = [
            resident, "--home", configuration.home, "--url", configuration.url, "--host", configuration.host.rawValue, "--lfg", lfg,
        ]
        if let interval { arguments += ["--interval", String(interval)] }
        var environment = context.environment
        // The token travels in the environment, never on the command line (`ps` shows arguments).
        environment["LFG_AUTH_TOKEN"] = configuration.token
        environment["LFG_HOME"] = configuration.home
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve(resident, argv, envp)
        throw CommandFailure("cannot start \(resident): \(String(cString: strerror(errno)))")
    }
}
