import FleetCore
import Foundation
import HookAdapter
import LFGCommandTesting
import Testing

@Suite("Codex CLI: lfg hook --agent codex and lfg hooks install --agent codex")
struct CodexAdapterTests {
    static let token = "c0dex0123456789abcdef0123456789a"

    @Test("A recorded Codex session shows the right display state after each event on a running lfg serve")
    func wholeSession() async throws {
        let folder = try TemporaryFolder()
        let environment = ["LFG_HOME": folder.path, "LFG_AUTH_TOKEN": Self.token]
        try await RunningServe.with(environment: environment) { url in
            var hook = environment
            hook["LFG_URL"] = url
            hook["LFG_HOOK_BUDGET_MS"] = "10000"  // a loaded machine must not turn slow into pending
            for event in CodexPayloads.wholeSession {
                let run = await CapturedRun.run(["hook", "--agent", "codex"], input: event.payload, environment: hook)
                #expect(run.status == 0 && run.output.isEmpty && run.errors.isEmpty, "\(event.name): \(run.errors)")
                let session = try await RunningServe.sessions(url, token: Self.token)[CodexPayloads.sid]
                #expect(session?["displayState"] as? String == event.display, "\(event.name)")
                if event.name == "PermissionRequest rm" {
                    let prompt = session?["prompt"] as? [String: Any]
                    #expect(prompt?["kind"] as? String == "permission")
                    #expect(prompt?["text"] as? String == "Bash: rm -rf target")
                }
                if event.name == "PreToolUse cargo test" {
                    #expect(session?["step"] as? String == "Bash: cargo test -p parser")
                    #expect(session?["title"] as? String == "Fix the flaky test in the parser crate")
                }
            }
        }
    }

    @Test("Only Codex's own events count, and Codex's tool names read as words")
    func codexEvents() throws {
        let codex = CodexAdapter()
        let notification = try codex.event(from: #"{"session_id": "s", "hook_event_name": "Notification", "notification_type": "idle_prompt"}"#)
        #expect(notification.name == .unknown("Notification"))
        let network = try codex.event(from: #"{"session_id": "s", "hook_event_name": "PermissionRequest", "tool_name": "NetworkAccess", "tool_input": {"command": "crates.io"}}"#)
        #expect(network.name == .permissionRequest && network.toolName == "Network access")
        var state: HookSessionState?
        _ = HookReducer.reduce(&state, network, host: .local)
        #expect(state?.report.prompt == Prompt(kind: .permission, text: "Network access"))
        #expect(throws: HookInputError.self) { try codex.event(from: "[]") }
    }

    @Test("An unknown --agent records nothing, says so on stderr, and still exits 0")
    func unknownAgent() async throws {
        let folder = try TemporaryFolder()
        let run = await CapturedRun.run(["hook", "--agent", "gemini"], input: CodexPayloads.stop, environment: ["LFG_HOME": folder.path])
        #expect(run.status == 0 && run.output.isEmpty)
        #expect(run.errors.contains("--agent gemini: unknown agent (known: claude, codex)"))
        #expect(HookFiles(home: folder.url).inbox.sessionKeys().isEmpty)
    }

    static let userHooks = """
        {
          "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send 'Codex is done'"}]}]
          }
        }

        """

    static func install(_ folder: TemporaryFolder, _ extra: [String] = []) async -> (status: Int32, output: String, errors: String) {
        await CapturedRun.run(
            ["hooks", "install", "--agent", "codex", "--lfg", HooksCommandTests.fakeLFG] + extra,
            environment: ["HOME": folder.path])
    }

    @Test("Install writes ~/.codex/hooks.json: Codex's six events, the user's hooks kept, a backup, the trust step named")
    func install() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file(".codex"), withIntermediateDirectories: true)
        try folder.write(".codex/hooks.json", Self.userHooks)
        let run = await Self.install(folder)
        #expect(run.status == 0)
        #expect(run.output.contains("Added `\(HooksCommandTests.fakeLFG) hook --agent codex` to Codex's hooks"))
        #expect(run.errors.contains("open /hooks and trust"))
        let written = try JSONParser.parse(try #require(folder.read(".codex/hooks.json")))
        let events = try #require(written["hooks"]?.objectValue).members.map(\.key)
        #expect(Set(events) == Set(CodexAdapter().installedEvents))
        let stop = try #require(written["hooks"]?["Stop"]?.arrayValue)
        let userStop = try JSONParser.parse(Self.userHooks)["hooks"]?["Stop"]?.arrayValue?.first
        #expect(stop.count == 2 && stop.first == userStop)
        let backups = try FileManager.default.contentsOfDirectory(atPath: folder.file(".codex")).filter { $0.contains("lfg-backup") }
        #expect(backups.count == 1)
        // Idempotent: the same bytes, no new backup.
        let before = folder.read(".codex/hooks.json")
        let again = await Self.install(folder)
        #expect(again.output.contains("nothing changed") && folder.read(".codex/hooks.json") == before)
        // Uninstall gives the user's file back.
        let removed = await CapturedRun.run(["hooks", "uninstall", "--agent", "codex"], environment: ["HOME": folder.path])
        #expect(removed.status == 0)
        #expect(try JSONParser.parse(try #require(folder.read(".codex/hooks.json"))) == (try JSONParser.parse(Self.userHooks)))
    }

    @Test("A broken hooks.json is refused by name and left as it was")
    func brokenFile() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file(".codex"), withIntermediateDirectories: true)
        let broken = "{\"hooks\": {\"Stop\": [}\n"
        try folder.write(".codex/hooks.json", broken)
        let run = await Self.install(folder)
        #expect(run.status == 1)
        #expect(run.errors.contains(folder.file(".codex/hooks.json") + " is not valid JSON"))
        #expect(folder.read(".codex/hooks.json") == broken)
    }

    @Test("config.toml is never edited: with its own [hooks] table, install says Codex will load both; without, it says nothing")
    func configTOML() async throws {
        for (toml, warns) in [("model = \"gpt-5.1-codex\"\n\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"say done\" }]\n", true),
                              ("model = \"gpt-5.1-codex\"\n[features]\nweb_search = true\n", false)] {
            let folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.file(".codex"), withIntermediateDirectories: true)
            try folder.write(".codex/config.toml", toml)
            let run = await Self.install(folder)
            #expect(run.status == 0)
            #expect(run.errors.contains("config.toml also has [hooks]") == warns, "\(run.errors)")
            #expect(folder.read(".codex/config.toml") == toml)
            #expect(folder.read(".codex/hooks.json")?.contains("hook --agent codex") == true)
        }
    }

    @Test("An unknown --agent for install is a usage error naming the known agents")
    func unknownAgentInstall() async throws {
        let run = await CapturedRun.run(["hooks", "install", "--agent", "gemini"])
        #expect(run.status == 2)
        #expect(run.errors.contains("--agent gemini: unknown agent; known: claude, codex"))
    }
}
