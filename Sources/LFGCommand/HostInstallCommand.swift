import Foundation
import HookAdapter
import HostAgent

/// `lfg host install`: writes the service file that keeps `lfg host` running (a systemd user unit on
/// Linux, a launchd agent on macOS) and asks the service manager to start it now and at every login.
public struct HostInstallCommand: Command {
    public static let name = "host install"
    public static let summary = "run lfg host as a systemd user unit (Linux) or launchd agent (macOS)"
    public static let usage = """
        Usage: lfg host install [--lfg PATH] [--system linux|macos] [--no-start]

        Writes ~/.config/systemd/user/lfg-host.service (Linux) or ~/Library/LaunchAgents/dev.lfg.host.plist
        (macOS), running `lfg host` with this $LFG_HOME, then enables and starts it
        (systemctl --user enable --now / launchctl bootstrap). Writing the same file again changes nothing.
          --lfg PATH        the lfg executable the service runs (default: this one)
          --system NAME     write the other system's file (to look at it; implies --no-start)
          --no-start        write the file only; start it yourself
        """

    let executablePath: String?
    let system: ServiceSystem
    let starts: Bool

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        executablePath = try arguments.value("--lfg")
        let choice = try ServiceSystem.chosen(&arguments)
        system = choice.system
        starts = !arguments.flag("--no-start") && !choice.isNamed
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let files = try HostServiceSetup.files(context, executablePath: executablePath)
        let path = system.path(of: files)
        let contents = system.contents(of: files)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if FileManager.default.contents(atPath: path) != Data(contents.utf8) {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        context.write("wrote \(path)\n")
        guard starts else {
            context.write("start it with: \(system.startCommand(files).joined(separator: " "))\n")
            return 0
        }
        try HostServiceSetup.runManager(system.startSteps(files), context)
        context.write("lfg host runs now and at every login; see it with: \(system.statusCommand.joined(separator: " "))\n")
        return 0
    }
}

/// `lfg host uninstall`: stops the service and removes its file.
public struct HostUninstallCommand: Command {
    public static let name = "host uninstall"
    public static let summary = "stop lfg host's service and remove its file"
    public static let usage = """
        Usage: lfg host uninstall [--system linux|macos] [--no-stop]

        Stops and disables the service `lfg host install` set up, then removes its file. Nothing
        installed: says so and exits 0.
          --no-stop   remove the file only
        """

    let system: ServiceSystem
    let stops: Bool

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        let choice = try ServiceSystem.chosen(&arguments)
        system = choice.system
        stops = !arguments.flag("--no-stop") && !choice.isNamed
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let files = try HostServiceSetup.files(context, executablePath: nil)
        let path = system.path(of: files)
        guard FileManager.default.fileExists(atPath: path) else {
            context.write("nothing to remove: \(path) does not exist\n")
            return 0
        }
        if stops { try HostServiceSetup.runManager(system.stopSteps(files), context) }
        try FileManager.default.removeItem(atPath: path)
        context.write("removed \(path)\n")
        return 0
    }
}

/// The two service managers `lfg host install` knows.
enum ServiceSystem: String, Sendable {
    case linux
    case macos

    /// `--system linux|macos` (only writes the file for that system: never starts or stops anything),
    /// else this machine's.
    static func chosen(_ arguments: inout ArgumentList) throws(UsageError) -> (system: ServiceSystem, isNamed: Bool) {
        guard let named = try arguments.value("--system") else { return (.current, false) }
        guard let system = ServiceSystem(rawValue: named) else { throw UsageError("--system takes linux or macos, not '\(named)'") }
        return (system, true)
    }

    static var current: ServiceSystem {
        #if os(macOS)
            .macos
        #else
            .linux
        #endif
    }

    func path(of files: ServiceFiles) -> String { self == .linux ? files.systemdUnitPath : files.launchdPlistPath }
    func contents(of files: ServiceFiles) -> String { self == .linux ? files.systemdUnit : files.launchdPlist }

    func startCommand(_ files: ServiceFiles) -> [String] {
        self == .linux
            ? ["systemctl", "--user", "enable", "--now", ServiceFiles.systemdUnitName]
            : ["launchctl", "bootstrap", "gui/\(getuid())", files.launchdPlistPath]
    }

    func startSteps(_ files: ServiceFiles) -> [[String]] {
        self == .linux ? [["systemctl", "--user", "daemon-reload"], startCommand(files)] : [startCommand(files)]
    }

    func stopSteps(_ files: ServiceFiles) -> [[String]] {
        self == .linux
            ? [["systemctl", "--user", "disable", "--now", ServiceFiles.systemdUnitName]]
            : [["launchctl", "bootout", "gui/\(getuid())/\(ServiceFiles.launchdLabel)"]]
    }

    var statusCommand: [String] {
        self == .linux ? ["systemctl", "--user", "status", ServiceFiles.systemdUnitName] : ["launchctl", "print", "gui/\(getuid())/\(ServiceFiles.launchdLabel)"]
    }
}

enum HostServiceSetup {
    /// The service files for this user, `$LFG_HOME` and executable.
    static func files(_ context: CommandContext, executablePath: String?) throws -> ServiceFiles {
        let configuration = HookConfiguration.resolve(environment: context.environment) { _ in nil }
        guard let userHome = context.environment["HOME"], !userHome.isEmpty else {
            throw CommandFailure("HOME is not set: the service file goes under your home folder")
        }
        let executable = try executablePath.map(HookSettingsLocation.checkedExecutable) ?? HookSettingsLocation.currentExecutable()
        let home = URL(fileURLWithPath: configuration.home).standardizedFileURL.path
        return ServiceFiles(executable: executable, home: home, userHome: userHome)
    }

    /// Runs each step (a service manager call); the first that fails stops, named with its output.
    static func runManager(_ steps: [[String]], _ context: CommandContext) throws {
        for step in steps {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = step
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            do { try process.run() } catch { throw CommandFailure("cannot run \(step[0]): \(error)") }
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard process.terminationStatus == 0 else {
                throw CommandFailure("`\(step.joined(separator: " "))` failed (exit \(process.terminationStatus)): \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
        }
    }
}
