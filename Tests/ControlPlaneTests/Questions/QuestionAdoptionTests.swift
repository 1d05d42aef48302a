import ControlPlane
import FleetCore
import Testing

/// ``QuestionBook/adopt(_:at:)``: questions another instance stored become this instance's as stored.
@Suite struct QuestionAdoptionTests {
    /// The question instance B stores for `id` when `sid`'s prompt asks it at 10, and as B answers it.
    static func stored(_ id: String, sid: SessionID = "s1", answer: String? = nil) throws -> Question {
        var elsewhere = QuestionBook()
        _ = elsewhere.promptReported(sid, QuestionBookTests.permission(id, expiresAt: 100), at: 10)
        if let answer { _ = elsewhere.answer(QuestionID(id), answer, by: "phone", at: 20) }
        return try #require(elsewhere[QuestionID(id)])
    }

    @Test("A new pending question is adopted and alerted here; its answer wakes the waiters and withdraws the alert; nothing is saved or logged")
    func pendingThenAnswered() throws {
        var book = QuestionBook()
        let asked = try Self.stored("q1")
        #expect(QuestionBookTests.kinds(book.adopt(["q1": asked], at: 11)) == ["adopted q1 pending", "alert q1"])
        #expect(book.adopt(["q1": asked], at: 12).isEmpty, "the same question again changes nothing")
        let answered = try Self.stored("q1", answer: "Allow")
        #expect(QuestionBookTests.kinds(book.adopt(["q1": answered], at: 21)) == ["adopted q1 answered", "resolved q1", "withdraw q1"])
        #expect(book["q1"] == answered)
    }

    @Test("A resolved question never turns pending again; one first seen resolved is not withdrawn; a forgotten one goes")
    func resolvedStaysResolved() throws {
        var book = QuestionBook()
        let answered = try Self.stored("q1", answer: "Deny")
        #expect(QuestionBookTests.kinds(book.adopt(["q1": answered], at: 21)) == ["adopted q1 answered", "resolved q1"])
        #expect(book.adopt(["q1": try Self.stored("q1")], at: 22).isEmpty)
        #expect(book["q1"]?.state == .answered)
        let forgotten: [QuestionID: Question?] = ["q1": nil]
        #expect(book.adopt(forgotten, at: 23).isEmpty)
        #expect(book["q1"] == nil)
    }

    @Test("An adopted pending question is this instance's to cancel when the prompt clears here")
    func adoptedPendingIsCancelledHere() throws {
        var book = QuestionBook()
        _ = book.adopt(["q1": try Self.stored("q1")], at: 11)
        let effects = book.promptReported("s1", nil, at: 12)
        #expect(QuestionBookTests.kinds(effects).prefix(2) == ["save q1 cancelled", "resolved q1"])
    }
}
