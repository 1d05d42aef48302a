import LFGCommandTesting
import Foundation
import HookAdapter
import Testing

@Suite("lfg hook never breaks the agent")
struct HookCommandTests {
    @Test("Whatever the input, it exits 0 and prints nothing Claude Code would read as a decision", arguments: [
        RecordedPayloads.sessionStart, RecordedPayloads.permissionRequest, "", "not json", "[]", #"{"hook_event_name": "Stop"}"#,
    ])
    func alwaysZeroAndSilent(input: String) async throws {
        let folder = try TemporaryFolder()
        let run = await CapturedRun.run(["hook"], input: input, environment: ["LFG_HOME": folder.path, "LFG_URL": "http://127.0.0.1:9"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
    }

    @Test("Arguments a hand-edited settings file adds are ignored rather than failing the hook")
    func extraArguments() async throws {
        let folder = try TemporaryFolder()
        let run = await CapturedRun.run(["hook", "--verbose", "x"], input: RecordedPayloads.stop, environment: ["LFG_HOME": folder.path])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
    }

    @Test("An unwritable LFG_HOME is reported on stderr only, and still exits 0")
    func unwritableHome() async throws {
        let folder = try TemporaryFolder()
        try folder.write("file", "x")
        let run = await CapturedRun.run(["hook"], input: RecordedPayloads.stop, environment: ["LFG_HOME": folder.file("file") + "/home"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("set LFG_HOME to a writable folder"))
    }
}
