import LFGCommand
import LFGCommandTesting
import Testing

@Suite struct CommandGroupTests {
    @Test("lfg --version prints the version and exits 0")
    func version() async {
        let run = await CapturedRun.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("lfg "))
    }

    @Test("A command group's --help lists its commands and exits 0", arguments: ["hooks", "bench", "channels"])
    func groupHelp(group: String) async {
        let run = await CapturedRun.run([group, "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("Usage: lfg \(group) COMMAND"))
        #expect(run.output.contains("  \(group) "))
    }

    @Test("A near miss is a usage error that suggests the command", arguments: [
        (["hooks", "instal"], "lfg hooks install"), (["serv"], "lfg serve"), (["bench", "apn"], "lfg bench apns"),
    ])
    func didYouMean(arguments: [String], suggestion: String) async {
        let run = await CapturedRun.run(arguments)
        #expect(run.status == 2)
        #expect(run.errors.contains("did you mean '\(suggestion)'?"))
    }
}

@Suite struct KeyFileMessageTests {
    @Test("A missing APNs key file is named in plain words, not as a Cocoa error")
    func missingKeyFile() async {
        let run = await CapturedRun.run(
            ["push", "--env", "sandbox", "--token", String(repeating: "ab", count: 32), "--type", "widgets"],
            environment: [
                "LFG_APNS_KEY_FILE": "/no/such/key.p8", "LFG_APNS_KEY_ID": "KEY1234567", "LFG_APNS_TEAM_ID": "TEAM123456",
                "LFG_APNS_BUNDLE_ID": "dev.lfg.app",
            ])
        #expect(run.status == 1)
        #expect(run.errors.contains("cannot read LFG_APNS_KEY_FILE /no/such/key.p8: no such file"))
        #expect(!run.errors.contains("NSCocoaErrorDomain"))
    }
}
