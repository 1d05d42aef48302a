import FleetCore
import Testing

/// Privacy mode's Live Activity rule (contract 8.3): pushes carry counts, phases, ids and times, no words; and
/// the one definition of "the same" between a wordless pushed state and the app's worded local state.
@Suite("Card words")
struct CardWordsTests {
    static let worded = ContentState(
        working: 2, needsInput: 1,
        rows: [
            Row(sid: "a", title: "Fix the login bug", state: .needsInput, since: 10),
            Row(sid: "b", title: "~/src/api", state: .working, since: 20),
        ],
        more: 1, updatedAt: 100)

    @Test("The wordless form blanks every title and keeps counts, more, sids, states, since and updatedAt")
    func wordlessKeepsEverythingButWords() {
        let wordless = Self.worded.wordless
        #expect(wordless.rows.map(\.title) == ["", ""])
        #expect(wordless.rows.map(\.sid) == Self.worded.rows.map(\.sid))
        #expect(wordless.rows.map(\.state) == Self.worded.rows.map(\.state))
        #expect(wordless.rows.map(\.since) == Self.worded.rows.map(\.since))
        #expect(wordless.working == 2 && wordless.needsInput == 1 && wordless.more == 1 && wordless.updatedAt == 100)
        #expect(wordless.isWordless && !Self.worded.isWordless)
        #expect(Self.worded.carrying(.shown) == Self.worded)
        #expect(Self.worded.carrying(.withheld) == wordless)
    }

    @Test("A wordless push and the worded local state of the same fleet are the same, both ways, with words withheld")
    func wordlessAndWordedAreTheSame() {
        var pushed = Self.worded.wordless
        pushed.updatedAt = 130
        #expect(pushed.isSame(as: Self.worded, words: .withheld))
        #expect(Self.worded.isSame(as: pushed, words: .withheld))
        #expect(Optional(pushed).isSame(as: Self.worded, words: .withheld))
        // With words shown they differ: that is the fight the rule prevents (every tick would push).
        #expect(!pushed.isSame(as: Self.worded, words: .shown))
        #expect(!pushed.isSame(as: Self.worded))
    }

    @Test(
        "With words withheld every count, phase, id and time still counts as a change",
        arguments: [
            { (s: inout ContentState) in s.working += 1 },
            { (s: inout ContentState) in s.needsInput += 1 },
            { (s: inout ContentState) in s.more += 1 },
            { (s: inout ContentState) in s.rows[0].since += 1 },
            { (s: inout ContentState) in s.rows[0].state = .working },
            { (s: inout ContentState) in s.rows[0].sid = "z" },
            { (s: inout ContentState) in s.rows.removeLast() },
        ] as [@Sendable (inout ContentState) -> Void])
    func everyNonWordStillCounts(change: @Sendable (inout ContentState) -> Void) {
        var changed = Self.worded
        change(&changed)
        #expect(!changed.wordless.isSame(as: Self.worded, words: .withheld))
    }

    @Test("A title change alone is no change with words withheld, and a change with words shown")
    func titleChange() {
        var renamed = Self.worded
        renamed.rows[1].title = "Renamed"
        #expect(renamed.isSame(as: Self.worded, words: .withheld))
        #expect(!renamed.isSame(as: Self.worded, words: .shown))
    }

    @Test("The app puts words back on a push: titles by sid, the push's counts, phases and times kept")
    func wordsPutBack() {
        var pushed = Self.worded.wordless
        pushed.working = 5
        pushed.rows.append(Row(sid: "new", title: "", state: .working, since: 30))
        let restored = pushed.withWords(from: Self.worded)
        #expect(restored.rows.map(\.title) == ["Fix the login bug", "~/src/api", ""])
        #expect(restored.working == 5 && restored.rows.map(\.since) == pushed.rows.map(\.since))
        #expect(restored.isSame(as: pushed, words: .withheld))
    }

    @Test("The card's question loses its words (ids, kind and fixed buttons stay) and gets them back by id")
    func questionWords() {
        var worded = Self.worded
        worded.question = CardQuestion(id: "q1", sid: "a", kind: .confirm, text: "Drop the table?", buttons: ["Allow", "Deny"])
        let pushed = worded.wordless
        #expect(pushed.question == CardQuestion(id: "q1", sid: "a", kind: .confirm, text: "", buttons: ["Allow", "Deny"]))
        #expect(pushed.isWordless && !worded.isWordless)
        #expect(pushed.isSame(as: worded, words: .withheld))
        #expect(pushed.withWords(from: worded) == worded)
    }

    @Test("A card with no known content is never the same")
    func unknownIsNeverSame() {
        #expect(!Optional<ContentState>.none.isSame(as: Self.worded.wordless, words: .withheld))
    }
}

/// The words of a private alert, as sealed: fitted to the sealed budget, read back by the phone.
@Suite("Alert words")
struct AlertWordsTests {
    @Test("Short words are kept as they are and read back from the sealed bytes")
    func roundTrip() throws {
        let words = AlertWords(title: "api-server", body: "Run \"make deploy\" on staging?", options: ["Yes", "No"])
        #expect(words.fitted() == words)
        #expect(AlertWords(sealedBytes: words.sealedBytes) == words)
    }

    @Test("Long words are shortened to the sealed budget: whole characters, an ellipsis, options in order")
    func longWordsFit() throws {
        let words = AlertWords(
            title: String(repeating: "Tïtle ", count: 100), body: String(repeating: "Why \"quoted\" / é 🚀 ", count: 500),
            options: (1...40).map { "Option \($0) " + String(repeating: "x", count: 200) })
        let fitted = words.fitted()
        #expect(fitted.sealedBytes.count <= AlertWords.maximumSealedBytes)
        #expect(fitted.sealedBytes.count > AlertWords.maximumSealedBytes - 64)
        #expect(fitted.body.hasSuffix("…") && fitted.title.hasSuffix("…"))
        #expect(fitted.options.first?.hasPrefix("Option 1 ") == true)
        #expect(!fitted.options.isEmpty && fitted.options.count < 40)
        #expect(AlertWords(sealedBytes: fitted.sealedBytes) == fitted)
    }

    @Test("Bytes that are not the words object read as nothing")
    func foreignBytes() {
        #expect(AlertWords(sealedBytes: Array("hello".utf8)) == nil)
        #expect(AlertWords(sealedBytes: Array(#"{"body":"x"}"#.utf8)) == nil)
    }
}

/// The wordless card the widget draws for a privacy push.
@Suite("Wordless card")
struct WordlessCardTests {
    @Test("A wordless state draws counts and where to go instead of blank rows")
    func wordlessState() throws {
        let state = CardWordsTests.worded.wordless
        let card = try #require(SurfaceLayout(state, on: .lockScreen).wordless)
        #expect(card.headline == "3 sessions")
        #expect(card.guidance == "1 needs you: open LFG to answer")
        #expect(WordlessCard(activeTotal: 1, needsInput: 0) == WordlessCard(activeTotal: 1, needsInput: 0))
        #expect(WordlessCard(activeTotal: 1, needsInput: 0).headline == "1 session")
        #expect(WordlessCard(activeTotal: 2, needsInput: 2).guidance == "2 need you: open LFG to answer")
        #expect(WordlessCard(activeTotal: 2, needsInput: 0).guidance == "Open LFG to see what they are doing")
    }

    @Test("A worded state, or one with no rows, draws its rows as before")
    func wordedState() {
        #expect(SurfaceLayout(CardWordsTests.worded, on: .lockScreen).wordless == nil)
        #expect(SurfaceLayout(ContentState(working: 0, updatedAt: 1), on: .lockScreen).wordless == nil)
    }
}
