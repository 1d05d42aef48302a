import HTTPServer
@testable import LFGCommand
import LFGCommandTesting
import Testing

/// `--bind` and the HTTP server check the address with one rule (what the listener's inet_pton takes):
/// an address the command accepts always binds, and a bad one is a usage error, never "another server?".
@Suite struct BindAddressTests {
    static let refused = ["1.2.3.4.", "+1.2.3.4", "01.2.3.4", "1.2.3", "256.1.1.1", "localhost", "::1", ""]
    static let accepted = ["127.0.0.1", "0.0.0.0", "10.20.30.40", "255.255.255.255"]

    @Test("lfg serve --bind refuses what the listener would refuse, as a usage error", arguments: refused)
    func refusedAtParse(address: String) {
        var arguments = ArgumentList(["--bind", address])
        #expect(throws: UsageError.self) { try ServeCommand(parsing: &arguments) }
    }

    @Test("The command and the server accept the same addresses", arguments: refused + accepted)
    func oneRule(address: String) {
        var arguments = ArgumentList(["--bind", address])
        let parses = (try? ServeCommand(parsing: &arguments)) != nil
        #expect(parses == IPv4Address.isValid(address))
        #expect(parses == Self.accepted.contains(address))
    }
}
