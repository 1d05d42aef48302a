import LFGCommand
import Testing

@Suite struct ServeDemoTests {
    @Test("lfg serve --demo parses with the other options")
    func demoParses() throws {
        var arguments = ArgumentList(["--demo", "--port", "9000"])
        let command = try ServeCommand(parsing: &arguments)
        #expect(command.isDemo && command.port == 9000)
        var plain = ArgumentList([])
        #expect(try ServeCommand(parsing: &plain).isDemo == false)
    }
}
