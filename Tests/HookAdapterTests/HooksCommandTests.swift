import FleetCore
import LFGCommandTesting
import Foundation
import HookAdapter
import Testing

@Suite("lfg hooks install and uninstall on settings files")
struct HooksCommandTests {
    static let userSettings = """
        {
          "permissions": {"allow": ["Bash(git status)"]},
          "hooks": {
            "Notification": [{"matcher": "idle_prompt", "hooks": [{"type": "command", "command": "notify-send idle"}]}]
          }
        }

        """

    /// An executable file standing in for `lfg` (install checks that `--lfg` is one).
    static let fakeLFG: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-hook-tests-bin-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("lfg").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        return path
    }()

    @Test("Install writes the cheap start when lfg-hook sits beside lfg")
    func installsFastStart() async throws {
        let folder = try TemporaryFolder()
        let bin = folder.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["lfg", "lfg-hook"] {
            _ = FileManager.default.createFile(
                atPath: bin + "/" + name, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
        let home = folder.file("home")
        let run = await CapturedRun.run(
            ["hooks", "install", "--settings", folder.file("settings.json"), "--lfg", bin + "/lfg"], environment: ["LFG_HOME": home])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Added `\(bin)/lfg-hook` to Claude Code's hooks"))
        let written = try JSONParser.parse(try #require(folder.read("settings.json")))
        #expect(written["hooks"]?["PreToolUse"]?.arrayValue?.first?["hooks"]?.arrayValue?.first?["command"] == .string(bin + "/lfg-hook"))
        // No host listens in that home: the install says how to get one (bursts need it).
        #expect(run.errors.contains("no `lfg host` is listening in \(home); run `lfg host install`"))

        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let host = try HostDoorbell.Listener(home: home)
        let again = await CapturedRun.run(
            ["hooks", "install", "--settings", folder.file("settings.json"), "--lfg", bin + "/lfg"], environment: ["LFG_HOME": home])
        #expect(again.status == 0, "\(again.errors)")
        #expect(!again.errors.contains("lfg host install"))
        #expect(host.waitForRing(timeoutSeconds: 0) == false)
    }

    static func install(_ folder: TemporaryFolder, _ name: String = "settings.json") async -> (status: Int32, output: String, errors: String) {
        await CapturedRun.run(["hooks", "install", "--settings", folder.file(name), "--lfg", fakeLFG])
    }

    @Test("--lfg must name an executable file: a missing path or a plain file is refused by name, and nothing changes")
    func checksExecutable() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", Self.userSettings)
        try folder.write("notes.txt", "not a program")
        for (path, words) in [("/no/such/path", "--lfg /no/such/path: no such file"), (folder.file("notes.txt"), "not an executable file"), (folder.path, "not an executable file")] {
            let run = await CapturedRun.run(["hooks", "install", "--settings", folder.file("settings.json"), "--lfg", path])
            #expect(run.status == 1)
            #expect(run.errors.contains(words), "\(run.errors)")
            #expect(folder.read("settings.json") == Self.userSettings)
            #expect(folder.names() == ["notes.txt", "settings.json"])
        }
    }

    @Test("Install backs up the user's file, adds LFG's hooks, and keeps the user's own hook")
    func install() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", Self.userSettings)
        let run = await Self.install(folder)
        #expect(run.status == 0)
        #expect(run.output.contains("Added `\(Self.fakeLFG) hook`"))
        let backups = folder.names().filter { $0.hasPrefix("settings.json.lfg-backup-") }
        #expect(backups.count == 1)
        #expect(folder.read(try #require(backups.first)) == Self.userSettings)
        let written = try JSONParser.parse(try #require(folder.read("settings.json")))
        let notification = try #require(written["hooks"]?["Notification"]?.arrayValue)
        #expect(notification.count == 2)
        #expect(notification[0]["matcher"] == .string("idle_prompt"))
        #expect(written["permissions"] == (try JSONParser.parse(Self.userSettings))["permissions"])
    }

    @Test("A second install changes nothing: same bytes, no new backup")
    func secondInstall() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", Self.userSettings)
        _ = await Self.install(folder)
        let before = folder.read("settings.json")
        let names = folder.names()
        let run = await Self.install(folder)
        #expect(run.status == 0)
        #expect(run.output.contains("nothing changed"))
        #expect(folder.read("settings.json") == before)
        #expect(folder.names() == names)
    }

    @Test("Install creates a missing settings file (and its folder) without a backup")
    func missingFile() async throws {
        let folder = try TemporaryFolder()
        let run = await CapturedRun.run(["hooks", "install", "--settings", folder.file("claude/settings.json"), "--lfg", Self.fakeLFG])
        #expect(run.status == 0)
        let written = try JSONParser.parse(try #require(folder.read("claude/settings.json")))
        #expect(written["hooks"]?["SessionStart"]?.arrayValue?.count == 1)
        #expect(folder.names() == ["claude"])
    }

    @Test("A settings file that is not valid JSON is refused by name, and left as it was")
    func invalidJSON() async throws {
        let folder = try TemporaryFolder()
        let broken = "{\n  \"model\": \"opus\",\n}\n"
        try folder.write("settings.json", broken)
        for command in [["hooks", "install"], ["hooks", "uninstall"]] {
            let run = await CapturedRun.run(command + ["--settings", folder.file("settings.json")])
            #expect(run.status == 1)
            #expect(run.errors.contains(folder.file("settings.json") + " is not valid JSON (line 3, column 1"))
            #expect(run.errors.contains("Nothing was changed"))
            #expect(folder.read("settings.json") == broken)
            #expect(folder.names() == ["settings.json"])
        }
    }

    @Test("Uninstall gives back the user's settings and keeps their hooks")
    func uninstall() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", Self.userSettings)
        _ = await Self.install(folder)
        let run = await CapturedRun.run(["hooks", "uninstall", "--settings", folder.file("settings.json")])
        #expect(run.status == 0)
        #expect(run.output.contains("Removed LFG's hooks"))
        #expect(try JSONParser.parse(try #require(folder.read("settings.json"))) == (try JSONParser.parse(Self.userSettings)))
        #expect(folder.names().filter { $0.contains("lfg-backup") }.count == 2)
        let again = await CapturedRun.run(["hooks", "uninstall", "--settings", folder.file("settings.json")])
        #expect(again.output.contains("nothing changed"))
    }

    @Test("Install writes through a symlinked settings file instead of replacing the link")
    func symlink() async throws {
        let folder = try TemporaryFolder()
        try folder.write("dotfiles.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: folder.file("settings.json"), withDestinationPath: folder.file("dotfiles.json"))
        _ = await Self.install(folder)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("settings.json")) == folder.file("dotfiles.json"))
        #expect(folder.read("dotfiles.json")?.contains("lfg hook") == true)
    }

    @Test("The default settings file is Claude Code's user settings")
    func defaultPath() {
        let claude = ClaudeCodeAdapter()
        #expect(claude.defaultConfigurationPath(environment: ["HOME": "/home/u"]) == "/home/u/.claude/settings.json")
        #expect(claude.defaultConfigurationPath(environment: ["HOME": "/home/u", "CLAUDE_CONFIG_DIR": "/cfg"]) == "/cfg/settings.json")
        let codex = CodexAdapter()
        #expect(codex.defaultConfigurationPath(environment: ["HOME": "/home/u"]) == "/home/u/.codex/hooks.json")
        #expect(codex.defaultConfigurationPath(environment: ["HOME": "/home/u", "CODEX_HOME": "/cx"]) == "/cx/hooks.json")
    }
}
