import LFGCommand
import Testing

@Suite("Argument parsing")
struct ArgumentListTests {
    @Test("Repeated options keep every value in order, in both spellings")
    func repeatedValues() throws {
        var list = ArgumentList(["--without", "dedupe", "--json", "--without=max-rows"])
        let values = try list.values("--without")
        let json = list.flag("--json")
        #expect(values == ["dedupe", "max-rows"])
        #expect(json)
        try list.finish()
    }

    @Test("An integer option outside its range is refused with the range in the message")
    func integerRange() {
        #expect(throws: UsageError("--port takes a whole number from 0 to 65535, not '70000'")) {
            var list = ArgumentList(["--port", "70000"])
            _ = try list.integer("--port", in: 0...65535)
        }
    }

    @Test("An option missing its value is a usage error")
    func missingValue() {
        #expect(throws: UsageError("--seed needs a value")) {
            var list = ArgumentList(["--seed"])
            _ = try list.value("--seed")
        }
    }

    @Test("A single-valued option given twice is refused")
    func givenTwice() {
        #expect(throws: UsageError("--port was given 2 times; give it once")) {
            var list = ArgumentList(["--port", "1", "--port", "2"])
            _ = try list.value("--port")
        }
    }
}
