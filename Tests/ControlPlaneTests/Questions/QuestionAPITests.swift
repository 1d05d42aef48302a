import APNs
import ControlPlane
import FleetCore
import Foundation
import StoreSQLite
import Testing

/// The question endpoints of contract 8.2, in memory.
@Suite(.timeLimit(.minutes(1))) struct QuestionAPITests {
    @Test("A prompt with an id becomes a pending question, listed and readable by id")
    func listAndRead() async throws {
        let harness = try await QuestionHarness()
        await harness.ask("s1", id: "q1")
        await harness.call("PUT", "/api/sessions/s2", #"{"title":"x","prompt":{"kind":"permission","text":"no id"}}"#)
        let list = await harness.call("GET", "/api/questions")
        let questions = try #require(list.json["questions"] as? [[String: Any]])
        #expect(questions.count == 1)
        let question = await harness.call("GET", "/api/questions/q1").json
        #expect(question["sid"] as? String == "s1")
        #expect(question["kind"] as? String == "confirm")
        #expect(question["options"] as? [String] == ["Allow", "Deny"])
        #expect(question["state"] as? String == "pending")
        #expect(question["answer"] is NSNull)
        #expect(question["answeredBy"] is NSNull)
        #expect(question["createdAt"] as? Double == 1_000)
        #expect(question["expiresAt"] as? Double == 1_000 + QuestionBook.defaultLifetime)
        #expect(await harness.call("GET", "/api/questions/nope").status == 404)
        #expect(await harness.call("GET", "/api/questions", query: ["state": "pending"]).json["questions"] as? [Any] != nil)
        let bad = await harness.call("GET", "/api/questions", query: ["state": "later"])
        #expect(bad.status == 400)
        #expect(bad.field == "state")
    }

    @Test("The first answer wins (200); the next is a 409 whose body is the question as it stands")
    func answerThenConflict() async throws {
        let harness = try await QuestionHarness()
        await harness.ask("s1", id: "q1")
        let first = await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Allow","deviceId":"phone-a"}"#)
        #expect(first.status == 200)
        #expect(first.json["state"] as? String == "answered")
        #expect(first.json["answeredBy"] as? String == "phone-a")
        let second = await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Deny","deviceId":"phone-b"}"#)
        #expect(second.status == 409)
        #expect(second.json["answer"] as? String == "Allow")
        let pending = await harness.call("GET", "/api/questions", query: ["state": "pending"])
        #expect((pending.json["questions"] as? [Any])?.isEmpty == true)
        #expect(harness.log.all.map(\.event) == [.questionAnswered])
    }

    @Test("An answer that is not an option is a 400 naming the field, and changes nothing")
    func notAnOption() async throws {
        let harness = try await QuestionHarness()
        await harness.ask("s1", id: "q1", kind: "question", options: ["Red", "Blue"])
        let reply = await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Green"}"#)
        #expect(reply.status == 400)
        #expect(reply.field == "answer")
        #expect(await harness.call("GET", "/api/questions/q1").json["state"] as? String == "pending")
        #expect(await harness.call("POST", "/api/questions/q1/answer", #"{"answer":7}"#).status == 400)
        #expect(await harness.call("POST", "/api/questions/nope/answer", #"{"answer":"Red"}"#).status == 404)
        #expect(await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Blue"}"#).status == 200)
    }

    @Test("A failed store commit refuses the answer and changes nothing")
    func storeFailure() async throws {
        let store = InMemoryStore()
        let harness = try await QuestionHarness(store: store)
        await harness.ask("s1", id: "q1")
        store.failNextCommit()
        #expect(await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Allow"}"#).status == 500)
        #expect(await harness.call("GET", "/api/questions/q1").json["state"] as? String == "pending")
    }

    @Test("A prompt cleared at the terminal cancels the question (answeredBy terminal); deleting the session too")
    func cancelled() async throws {
        let harness = try await QuestionHarness()
        await harness.ask("s1", id: "q1")
        await harness.call("PATCH", "/api/sessions/s1", #"{"prompt":null}"#)
        let question = await harness.call("GET", "/api/questions/q1").json
        #expect(question["state"] as? String == "cancelled")
        #expect(question["answeredBy"] as? String == "terminal")
        await harness.ask("s2", id: "q2")
        await harness.call("DELETE", "/api/sessions/s2")
        #expect(await harness.call("GET", "/api/questions/q2").json["state"] as? String == "cancelled")
        #expect(harness.log.all.map(\.event) == [.questionCancelled, .questionCancelled])
    }

    @Test("A question expires on the tick at its expiry")
    func expires() async throws {
        let harness = try await QuestionHarness()
        await harness.call(
            "PUT", "/api/sessions/s1", #"{"title":"x","prompt":{"id":"q1","kind":"permission","text":"t","expiresAt":1010}}"#)
        harness.time.advance(9)
        await harness.service.tick()
        #expect(await harness.call("GET", "/api/questions/q1").json["state"] as? String == "pending")
        harness.time.advance(1)
        await harness.service.tick()
        #expect(await harness.call("GET", "/api/questions/q1").json["state"] as? String == "expired")
    }

    @Test("Questions survive a restart of the SQLite store")
    func survivesRestart() async throws {
        let path = try makeTemporaryDirectory() + "/lfg.sqlite"
        do {
            let harness = try await QuestionHarness(store: try SQLiteStore(path: path, now: 1))
            await harness.ask("s1", id: "q1")
            await harness.ask("s2", id: "q2")
            #expect(await harness.call("POST", "/api/questions/q2/answer", #"{"answer":"Deny"}"#).status == 200)
        }
        let store = try SQLiteStore(path: path, now: 2)
        #expect(try await store.appliedMigrations().contains("002_questions"))
        let harness = try await QuestionHarness(store: store)
        #expect(await harness.call("GET", "/api/questions/q1").json["state"] as? String == "pending")
        #expect(await harness.call("GET", "/api/questions/q2").json["answer"] as? String == "Deny")
        // Still the session's question after the restart: a terminal answer cancels it.
        await harness.call("PATCH", "/api/sessions/s1", #"{"prompt":null}"#)
        #expect(await harness.call("GET", "/api/questions/q1").json["state"] as? String == "cancelled")
    }

    @Test("The long poll returns at once for a settled question, else when it is answered")
    func waitAnswered() async throws {
        let harness = try await QuestionHarness()
        await harness.ask("s1", id: "q1")
        async let waited = harness.call("GET", "/api/questions/q1/wait", query: ["timeout": "60"])
        try await harness.clock.waitForSleeper(until: .init(offset: .seconds(60)))
        #expect(harness.service.questionWaiters.count == 1)
        #expect(await harness.call("POST", "/api/questions/q1/answer", #"{"answer":"Allow"}"#).status == 200)
        #expect(await waited.json["answer"] as? String == "Allow")
        #expect(harness.service.questionWaiters.count == 0)
        let settled = await harness.call("GET", "/api/questions/q1/wait", query: ["timeout": "60"])
        #expect(settled.json["state"] as? String == "answered")
        #expect(await harness.call("GET", "/api/questions/nope/wait").status == 404)
        #expect(await harness.call("GET", "/api/questions/q1/wait", query: ["timeout": "soon"]).status == 400)
    }

    @Test("The long poll gives up after its timeout (at most 300 s) with the question still pending")
    func waitTimesOut() async throws {
        let harness = try await QuestionHarness()
        await harness.ask("s1", id: "q1")
        async let waited = harness.call("GET", "/api/questions/q1/wait", query: ["timeout": "9999"])
        try await harness.clock.waitForSleeper(until: .init(offset: .seconds(300)))
        harness.clock.advance(by: .seconds(299))
        #expect(harness.service.questionWaiters.count == 1)
        harness.clock.advance(by: .seconds(1))
        #expect(await waited.json["state"] as? String == "pending")
        #expect(harness.service.questionWaiters.count == 0)
    }
}
