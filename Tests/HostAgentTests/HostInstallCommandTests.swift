import Foundation
import HostAgent
import LFGCommandTesting
import Testing

/// `lfg host install|uninstall` with a temporary HOME and `--no-start`/`--system`: the file is written
/// and removed, and no service manager is ever called, so no test leaves a service installed.
@Suite("lfg host install / uninstall")
struct HostInstallCommandTests {
    private func temporaryHome() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-host-install-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("install --no-start writes the systemd unit for this LFG_HOME; again changes nothing; uninstall removes it")
    func systemd() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "LFG_HOME": home + "/lfg home"]
        let install = await CapturedRun.run(["host", "install", "--no-start", "--system", "linux", "--lfg", "/bin/sh"], environment: environment)
        #expect(install.status == 0, "\(install.errors)")
        let path = home + "/.config/systemd/user/lfg-host.service"
        let unit = try String(contentsOfFile: path, encoding: .utf8)
        #expect(unit == ServiceFiles(executable: "/bin/sh", home: home + "/lfg home", userHome: home).systemdUnit)
        #expect(install.output.contains("wrote \(path)"))
        #expect(install.output.contains("systemctl --user enable --now lfg-host.service"))
        let again = await CapturedRun.run(["host", "install", "--no-start", "--system", "linux", "--lfg", "/bin/sh"], environment: environment)
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == unit)

        let uninstall = await CapturedRun.run(["host", "uninstall", "--system", "linux"], environment: environment)
        #expect(uninstall.status == 0, "\(uninstall.errors)")
        #expect(!FileManager.default.fileExists(atPath: path))
        let nothing = await CapturedRun.run(["host", "uninstall", "--system", "linux"], environment: environment)
        #expect(nothing.status == 0)
        #expect(nothing.output.contains("nothing to remove"))
    }

    @Test("install --system macos writes the launchd agent plist (content checked; launchd cannot run here)")
    func launchd() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let run = await CapturedRun.run(["host", "install", "--system", "macos", "--lfg", "/bin/sh"], environment: ["HOME": home, "LFG_HOME": home + "/.lfg"])
        #expect(run.status == 0, "\(run.errors)")
        let plist = try String(contentsOfFile: home + "/Library/LaunchAgents/dev.lfg.host.plist", encoding: .utf8)
        #expect(plist == ServiceFiles(executable: "/bin/sh", home: home + "/.lfg", userHome: home).launchdPlist)
        #expect(run.output.contains("launchctl bootstrap gui/"))
    }

    @Test("A wrong --system or --lfg is refused by name and writes nothing")
    func refusals() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let system = await CapturedRun.run(["host", "install", "--system", "windows"], environment: ["HOME": home])
        #expect(system.status == 2)
        #expect(system.errors.contains("--system takes linux or macos, not 'windows'"))
        let lfg = await CapturedRun.run(["host", "install", "--no-start", "--lfg", home + "/nope"], environment: ["HOME": home])
        #expect(lfg.status == 1)
        #expect(lfg.errors.contains("no such file"))
        #expect(!FileManager.default.fileExists(atPath: home + "/.config"))
    }
}
