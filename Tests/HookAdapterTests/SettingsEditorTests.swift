import FleetCore
import HookAdapter
import Testing

@Suite("Installing and removing LFG's hooks as JSON transformations")
struct SettingsEditorTests {
    static let editor = HookSettingsEditor(executablePath: "/usr/local/bin/lfg")

    /// A user's settings with their own hooks on two of LFG's events and one other event.
    static let userSettings = """
        {
          "model": "opus",
          "permissions": {"allow": ["Bash(swift build:*)"], "deny": []},
          "hooks": {
            "PreToolUse": [
              {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-bash.sh", "timeout": 30}]}
            ],
            "Stop": [
              {"hooks": [{"type": "command", "command": "say done"}]}
            ],
            "ConfigChange": [
              {"hooks": [{"type": "http", "url": "http://localhost:9000/config"}]}
            ]
          },
          "cleanupPeriodDays": 1.50e1
        }
        """

    @Test("Install adds one LFG handler per mapped event and keeps every other key and hook in place")
    func installKeepsUserHooks() throws {
        let installed = try Self.editor.install(into: try JSONParser.parse(Self.userSettings))
        let original = try JSONParser.parse(Self.userSettings)
        #expect(installed["model"] == original["model"])
        #expect(installed["permissions"] == original["permissions"])
        #expect(installed["cleanupPeriodDays"] == .number("1.50e1"))
        #expect(installed.objectValue?.members.map(\.key) == ["model", "permissions", "hooks", "cleanupPeriodDays"])
        let hooks = try #require(installed["hooks"]?.objectValue)
        #expect(hooks["ConfigChange"] == original["hooks"]?["ConfigChange"])
        let preToolUse = try #require(hooks["PreToolUse"]?.arrayValue)
        #expect(preToolUse == [original["hooks"]!["PreToolUse"]!.arrayValue![0], Self.editor.group])
        for event in HookEventName.installed {
            let groups = try #require(hooks[event.rawValue]?.arrayValue, "\(event)")
            #expect(groups.filter { $0 == Self.editor.group }.count == 1, "\(event)")
        }
    }

    @Test("LFG's handler runs `lfg hook` with a bounded timeout and is recognised as LFG's")
    func handlerShape() throws {
        #expect(Self.editor.handler == .object(["type": "command", "command": "/usr/local/bin/lfg hook", "timeout": .number("5")]))
        #expect(HookSettingsEditor.isLFGHandler(Self.editor.handler))
        let spaced = HookSettingsEditor(executablePath: "/Users/me/My Tools/lfg")
        #expect(spaced.command == "'/Users/me/My Tools/lfg' hook")
        #expect(HookSettingsEditor.isLFGHandler(spaced.handler))
        #expect(!HookSettingsEditor.isLFGHandler(.object(["type": "command", "command": "lfg hooks install"])))
        #expect(!HookSettingsEditor.isLFGHandler(.object(["type": "command", "command": "/opt/notlfg hook"])))
        #expect(!HookSettingsEditor.isLFGHandler(.object(["type": "http", "command": "lfg hook"])))
    }

    @Test("With lfg-hook beside lfg the handler runs that cheap start; an earlier `lfg hook` entry is replaced, and both are LFG's")
    func fastStartHandler() throws {
        let fast = HookSettingsEditor(executablePath: "/usr/local/bin/lfg", fastStartPath: "/usr/local/bin/lfg-hook")
        #expect(fast.command == "/usr/local/bin/lfg-hook")
        #expect(HookSettingsEditor(executablePath: "/x/lfg", fastStartPath: "/x/lfg-hook", agent: CodexAdapter()).command
            == "/x/lfg-hook --agent codex")
        for command in ["/usr/local/bin/lfg-hook", "lfg-hook --agent codex", "'/My Tools/lfg-hook'"] {
            #expect(HookSettingsEditor.isLFGHandler(.object(["type": "command", "command": .string(command)])), "\(command)")
        }
        for command in ["lfg-hook hook", "/opt/notlfg-hook", "lfg-hook --agent"] {
            #expect(!HookSettingsEditor.isLFGHandler(.object(["type": "command", "command": .string(command)])), "\(command)")
        }
        let old = try Self.editor.install(into: try JSONParser.parse(Self.userSettings))
        let upgraded = try fast.install(into: old)
        #expect(upgraded == (try fast.install(into: try JSONParser.parse(Self.userSettings))))
        #expect(HookSettingsEditor.uninstall(from: upgraded) == HookSettingsEditor.uninstall(from: old))
    }

    @Test("Installing twice gives the same document as installing once")
    func idempotent() throws {
        let once = try Self.editor.install(into: try JSONParser.parse(Self.userSettings))
        #expect(try Self.editor.install(into: once) == once)
        #expect(try Self.editor.install(into: .object([:])) == (try Self.editor.install(into: try Self.editor.install(into: .object([:])))))
    }

    @Test("Installing from a new path replaces the old LFG handler instead of adding a second")
    func reinstallFromNewPath() throws {
        let old = try HookSettingsEditor(executablePath: "/old/lfg").install(into: try JSONParser.parse(Self.userSettings))
        let moved = try Self.editor.install(into: old)
        #expect(moved == (try Self.editor.install(into: try JSONParser.parse(Self.userSettings))))
    }

    @Test("Uninstall after install gives back the user's document exactly")
    func uninstallRestores() throws {
        let original = try JSONParser.parse(Self.userSettings)
        #expect(HookSettingsEditor.uninstall(from: try Self.editor.install(into: original)) == original)
        let empty = JSONValue.object(["theme": "dark"])
        #expect(HookSettingsEditor.uninstall(from: try Self.editor.install(into: empty)) == empty)
    }

    @Test("Uninstall removes only LFG's handler from a group it shares with the user's")
    func sharedGroup() throws {
        let shared = try JSONParser.parse("""
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"},
                                           {"type": "command", "command": "/usr/local/bin/lfg hook"}]}]}}
            """)
        let expected = try JSONParser.parse(#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}"#)
        #expect(HookSettingsEditor.uninstall(from: shared) == expected)
    }

    @Test("A document with no place for hooks is refused, naming the part", arguments: [
        ("[]", "an array, not a JSON object"),
        (#"{"hooks": []}"#, "\"hooks\" is an array"),
        (#"{"hooks": {"Stop": {"hooks": []}}}"#, "\"hooks.Stop\" is an object"),
    ])
    func refusedShapes(text: String, message: String) throws {
        let document = try JSONParser.parse(text)
        #expect {
            _ = try Self.editor.install(into: document)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("The JSON reader keeps key order, number literals and escapes through a round trip")
    func roundTrip() throws {
        let text = #"{"b": 1, "a": [true, null, -0.5e-3], "s": "tab\there \"q\" \u00e9 \ud83d\ude00", "e": {}, "l": []}"#
        let value = try JSONParser.parse(text)
        #expect(value.objectValue?.members.map(\.key) == ["b", "a", "s", "e", "l"])
        #expect(value["s"] == .string("tab\there \"q\" é 😀"))
        #expect(try JSONParser.parse(value.prettyPrinted()) == value)
    }

    @Test("Invalid JSON is refused with the line and column", arguments: [
        ("{\n  \"a\": 1,\n}", "line 3, column 1"),
        ("{\"a\": 1} x", "unexpected text"),
        ("{\"a\": tru}", "expected a value"),
        ("{\"a\": \"x}", "unterminated string"),
        ("// comment\n{}", "line 1, column 1"),
    ])
    func invalidJSON(text: String, message: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
