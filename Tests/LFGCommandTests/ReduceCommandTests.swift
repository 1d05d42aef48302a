import LFGCommandTesting
import Foundation
import Testing

@Suite("lfg reduce")
struct ReduceCommandTests {
    static func json(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test("It answers the contract's example with the card, the since map and the verdicts")
    func contractExample() async throws {
        let input = """
            { "now": 1764400000.0,
              "sessions": [
                {"sid": "a", "title": "Fix the build", "busy": true},
                {"sid": "b", "title": "Ship it?", "prompt": {"kind": "permission", "text": "Run deploy.sh?"}},
                {"sid": "c", "title": "Paused", "blocked": true},
                {"sid": "d", "title": "Secret", "busy": true, "cwd": "/work/private/x"} ],
              "hiddenDirs": ["/work/private"],
              "previousSince": { "a": {"state": "working", "since": 1764399000.0} } }
            """
        let run = await CapturedRun.run(["reduce"], input: input)
        #expect(run.status == 0)
        #expect(run.errors.isEmpty)
        let expected = """
            {"accent": "#FF9F0A", "activeTotal": 2, "trustworthy": true, "relevanceScore": 100,
             "contentState": {"working": 1, "needsInput": 1, "more": 0, "updatedAt": 1764400000,
               "rows": [{"sid": "b", "title": "Ship it?", "state": "needsInput", "since": 1764400000},
                        {"sid": "a", "title": "Fix the build", "state": "working", "since": 1764399000}]},
             "since": {"a": {"state": "working", "since": 1764399000}, "b": {"state": "needsInput", "since": 1764400000}}}
            """
        #expect(try Self.json(run.output) == Self.json(expected))
    }

    @Test("A session on a down host makes the answer untrustworthy")
    func downHost() async throws {
        let input = #"{"now": 5, "sessions": [{"sid": "a", "busy": true, "host": "mac"}], "downHosts": ["mac"]}"#
        let run = await CapturedRun.run(["reduce"], input: input)
        let answer = try Self.json(run.output)
        #expect(answer["trustworthy"] as? Bool == false)
        #expect(answer["activeTotal"] as? Int == 0)
        #expect(answer["accent"] as? String == "#30D158")
    }

    @Test(
        "Bad input exits 1 with one line naming what is wrong",
        arguments: [
            ("not json", "not valid JSON"),
            ("", "no input"),
            (#"{"sessions": []}"#, "now: is required"),
            (#"{"now": 1, "sessions": [{"busy": true}]}"#, "sessions[0].sid: is required"),
            (#"{"now": 1, "sessions": [{"sid": "a", "busy": "yes"}]}"#, "sessions[0].busy: expected a boolean"),
            (#"{"now": 1, "sessions": [{"sid": ""}]}"#, "sessions[0].sid: must not be empty"),
            (#"{"now": "soon", "sessions": []}"#, "now: expected a number"),
        ])
    func badInput(input: String, reason: String) async {
        let run = await CapturedRun.run(["reduce"], input: input)
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("lfg reduce: bad request: ") || run.errors.hasPrefix("lfg reduce: no input"))
        #expect(run.errors.contains(reason))
        #expect(run.errors.filter { $0 == "\n" }.count == 1)
    }
}

@Suite("The lfg command line")
struct CommandLineTests {
    @Test("An unknown command is a usage error with exit 2")
    func unknownCommand() async {
        let run = await CapturedRun.run(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.errors.contains("unknown command 'frobnicate'"))
    }

    @Test("An unknown option is a usage error naming it")
    func unknownOption() async {
        let run = await CapturedRun.run(["reduce", "--fast"])
        #expect(run.status == 2)
        #expect(run.errors == "lfg reduce: unknown argument '--fast'\n")
    }

    @Test("--help lists every command and exits 0; a command's --help prints its usage")
    func help() async {
        let overview = await CapturedRun.run(["--help"])
        #expect(overview.status == 0)
        for name in ["serve", "reduce", "diagnose", "simulate", "bench apns", "hook", "hooks install", "hooks uninstall"] {
            #expect(overview.output.contains("  \(name) "))
        }
        let usage = await CapturedRun.run(["reduce", "--help"])
        #expect(usage.status == 0)
        #expect(usage.output.hasPrefix("Usage: lfg reduce"))
    }
}
