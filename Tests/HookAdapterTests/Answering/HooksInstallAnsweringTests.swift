import FleetCore
import Foundation
import HookAdapter
import LFGCommandTesting
import Testing

/// `lfg hooks install` sets the answer policy and a handler timeout above the wait.
@Suite struct HooksInstallAnsweringTests {
    static func timeouts(_ settings: JSONValue) -> [String: String] {
        var found: [String: String] = [:]
        for member in settings["hooks"]?.objectValue?.members ?? [] {
            if case .number(let literal) = member.value.arrayValue?.last?["hooks"]?.arrayValue?.first?["timeout"] {
                found[member.key] = literal
            }
        }
        return found
    }

    @Test("The answering events' handler waits 30 s longer than the phone wait; the others keep 5 s")
    func editorTimeouts() throws {
        let editor = HookSettingsEditor(executablePath: "/usr/local/bin/lfg", answerTimeout: 150)
        let timeouts = Self.timeouts(try editor.install(into: .object([:])))
        #expect(timeouts["PermissionRequest"] == "150")
        #expect(timeouts["PreToolUse"] == "150")
        #expect(timeouts["Stop"] == "5")
        #expect(Self.timeouts(try HookSettingsEditor(executablePath: "/usr/local/bin/lfg").install(into: .object([:])))["PreToolUse"] == "5")
    }

    @Test("--answer-policy and --answer-wait are saved in $LFG_HOME/.env (other lines and its mode kept) and set the timeout")
    func installSavesSettings() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", "{}")
        try folder.write(".env", "LFG_AUTH_TOKEN=secret\nLFG_ANSWER_WAIT_S=10\n")
        _ = chmod(folder.file(".env"), 0o600)
        let run = await CapturedRun.run(
            ["hooks", "install", "--settings", folder.file("settings.json"), "--lfg", HooksCommandTests.fakeLFG,
             "--answer-policy", "always", "--answer-wait", "120"],
            environment: ["LFG_HOME": folder.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("up to 120 s (policy always)"))
        #expect(folder.read(".env") == "LFG_AUTH_TOKEN=secret\nLFG_ANSWER_WAIT_S=120\nLFG_ANSWER_POLICY=always\n")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.file(".env"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let settings = try JSONParser.parse(folder.read("settings.json") ?? "")
        #expect(Self.timeouts(settings)["PermissionRequest"] == "150")
        let never = await CapturedRun.run(
            ["hooks", "install", "--settings", folder.file("settings.json"), "--lfg", HooksCommandTests.fakeLFG,
             "--answer-policy", "never"],
            environment: ["LFG_HOME": folder.path])
        #expect(never.output.contains("never waits"))
        #expect(Self.timeouts(try JSONParser.parse(folder.read("settings.json") ?? ""))["PermissionRequest"] == "5")
        let bad = await CapturedRun.run(["hooks", "install", "--answer-policy", "sometimes"])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("--answer-policy"))
    }
}
