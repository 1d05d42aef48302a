import APNsMock
import Testing

/// The stand-in's privacy leak check: what counts as carrying a fixture word.
@Suite("APNs stand-in leak check")
struct LeakCheckTests {
    let check = LeakCheck(words: ["Fix the login bug", "/home/ana/secret", "Café", ""])

    @Test("A word in any string of the body is found, also when the JSON escapes it")
    func findsEscapedWords() {
        let body = #"{"aps":{"content-state":{"rows":[{"title":"Fix the login bug"}]}},"p":"\/home\/ana\/secret\/x","c":"Caf\u00e9"}"#
        #expect(check.leaks(in: Array(body.utf8)) == ["Fix the login bug", "/home/ana/secret", "Café"])
    }

    @Test("A wordless body is clean; empty fixture words are ignored")
    func cleanBody() {
        #expect(check.words.count == 3)
        #expect(check.leaks(in: Array(#"{"aps":{"alert":{"body":"A session needs you"}},"sid":"s1"}"#.utf8)) == [])
    }

    @Test("A body that is not JSON is searched as text")
    func notJSON() {
        #expect(check.leaks(in: Array("garbage Fix the login bug".utf8)) == ["Fix the login bug"])
    }

    @Test("A fixture is a JSON array of strings or {\"words\": [...]}; anything else is refused")
    func fixtures() throws {
        #expect(try LeakCheck(fixture: #"["a","b"]"#).words == ["a", "b"])
        #expect(try LeakCheck(fixture: #"{"words":["a"]}"#).words == ["a"])
        #expect(throws: LeakCheckError.self) { try LeakCheck(fixture: #"{"words":[1]}"#) }
        #expect(throws: LeakCheckError.self) { try LeakCheck(fixture: "nope") }
    }
}
