import ControlPlane
import FleetCore
import StorePostgres
import Testing

/// The shared stores' report-number rule (``StoreWrite/takeReportSeq(_:_:)``): the same rule as one
/// instance's (``ReportSequence``), kept where every instance sees it.
@Suite struct ReportSeqStoreTests {
    /// Stores that keep report numbers: PostgreSQL (when a test database runs) and the in-memory store.
    static var sharedKinds: [StoreKind] { StoreKind.available.filter { $0 != .sqlite } }

    static let pairs: [(seq: Int, last: Int?)] = [nil, 1, 2, 3, 5].flatMap { last in (1...6).map { (seq: $0, last: last) } }

    @Test("A number is refused exactly when ReportSequence calls it stale; a refused commit changes nothing and names the last number", arguments: sharedKinds)
    func ruleMatchesReportSequence(kind: StoreKind) async throws {
        let store = try kind.make()
        for (index, pair) in Self.pairs.enumerated() {
            let sid = SessionID("s\(index)")
            if let last = pair.last {
                try await store.commit([.takeReportSeq(sid, last), .putSession(sid, SessionReport(title: "last"))])
            }
            let stale = ReportSequence.isStale(pair.seq, after: pair.last)
            do {
                try await store.commit([.takeReportSeq(sid, pair.seq), .putSession(sid, SessionReport(title: "new"))])
                #expect(!stale, "seq \(pair.seq) after \(String(describing: pair.last)) was taken")
            } catch {
                let refused = try #require(error.conflict?.staleReports[sid], "\(error)")
                #expect(stale, "seq \(pair.seq) after \(String(describing: pair.last)) was refused")
                #expect(refused == StoreConflict.StaleReport(lastSeq: pair.last ?? -1, report: SessionReport(title: "last")))
            }
            let stored = try await store.load().sessions[sid]?.title
            #expect(stored == (stale ? "last" : "new"), "seq \(pair.seq) after \(String(describing: pair.last))")
        }
    }

    @Test("A deleted session's numbering starts over, as on one instance", arguments: sharedKinds)
    func deleteForgets(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit([.takeReportSeq("s", 9), .putSession("s", SessionReport(title: "nine"))])
        try await store.commit([.deleteSession("s")])
        try await store.commit([.takeReportSeq("s", 5), .putSession("s", SessionReport(title: "five"))])
        #expect(try await store.load().sessions["s"]?.title == "five")
    }

    @Test("One session numbered several times in a commit: its first number is checked against the stored one, its last is kept", arguments: sharedKinds)
    func severalNumbersOfOneSession(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit([.takeReportSeq("s", 7), .putSession("s", SessionReport(title: "seven"))])
        // 1 starts the numbering over, then 2 follows it: both taken, though 2 alone is stale after 7.
        try await store.commit([
            .takeReportSeq("s", 1), .putSession("s", SessionReport(title: "two")), .takeReportSeq("s", 2),
            .takeReportSeq("t", 4), .putSession("t", SessionReport(title: "four")),
        ])
        #expect(try await store.load().sessions["s"]?.title == "two")
        do {
            try await store.commit([.takeReportSeq("s", 2), .takeReportSeq("s", 3), .putSession("s", SessionReport(title: "three"))])
            Issue.record("2 was taken after 2")
        } catch {
            #expect(error.conflict?.staleReports == ["s": .init(lastSeq: 2, report: SessionReport(title: "two"))])
        }
        // Out of order within the commit: refused as written (5 taken, then 3 stale after it), nothing kept.
        do {
            try await store.commit([.takeReportSeq("u", 5), .takeReportSeq("u", 3), .putSession("u", SessionReport(title: "u"))])
            Issue.record("3 was taken after 5")
        } catch {
            #expect(error.conflict?.staleReports == ["u": .init(lastSeq: 5, report: nil)])
        }
        let stored = try await store.load().sessions
        #expect(stored["s"]?.title == "two")
        #expect(stored["t"]?.title == "four")
        #expect(stored["u"] == nil)
    }

    @Test("PostgreSQL: a group commit taking 100 sessions' numbers costs a few round trips, not one per number")
    func numbersInOneStatement() async throws {
        let store = try StoreKind.postgres.make()
        let sids = (0..<100).map { SessionID("s\($0)") }
        func numbered(_ seq: Int) -> [StoreWrite] {
            sids.flatMap { [StoreWrite.takeReportSeq($0, seq), .putSession($0, SessionReport(title: "\(seq)"))] }
        }
        try await store.commit([.takeReportSeq("warm", 1), .putSession("warm", SessionReport(title: "t"))])  // prepared
        var before = PostgresRoundTrips.total
        try await store.commit(numbered(1) + numbered(2))
        #expect(PostgresRoundTrips.total - before < 20)
        // All stale: refused whole, with each stored number and report, in one more statement.
        before = PostgresRoundTrips.total
        do {
            try await store.commit(numbered(2))
            Issue.record("stale numbers were taken")
        } catch {
            #expect(error.conflict?.staleReports.count == 100)
            #expect(error.conflict?.staleReports["s7"] == .init(lastSeq: 2, report: SessionReport(title: "2")))
        }
        #expect(PostgresRoundTrips.total - before < 20)
        #expect(try await store.load().sessions.count == 101)
    }

    @Test("A store no other instance shares keeps no numbers: the write is refused and nothing changes")
    func sqliteRefuses() async throws {
        let store = try StoreKind.sqlite.make()
        await #expect(throws: StoreError.self) {
            try await store.commit([.putSession("s", SessionReport(title: "T")), .takeReportSeq("s", 1)])
        }
        #expect(try await store.load().sessions.isEmpty)
    }
}

/// The shared stores' "first answer wins": a settled question is never replaced by a different one.
@Suite struct SettledQuestionStoreTests {
    static func question(_ state: Question.State, answer: String? = nil) -> Question {
        var question = Question.asked(
            by: Prompt(id: "q", kind: .permission, text: "t"), in: "s", at: 1, defaultLifetime: 600)!
        question.state = state
        question.answer = answer
        return question
    }

    @Test("A different resolution of a settled question is refused with the stored one; the same one, or a pending question resolved, is taken", arguments: ReportSeqStoreTests.sharedKinds)
    func settledWins(kind: StoreKind) async throws {
        let store = try kind.make()
        try await store.commit([.putQuestion(Self.question(.pending))])
        let allowed = Self.question(.answered, answer: "Allow")
        try await store.commit([.putQuestion(allowed)])
        try await store.commit([.putQuestion(allowed)])
        for other in [Self.question(.answered, answer: "Deny"), Self.question(.cancelled), Self.question(.pending)] {
            do {
                try await store.commit([.putSession("s", SessionReport(title: "T")), .putQuestion(other)])
                Issue.record("\(other.state) replaced the stored answer")
            } catch {
                #expect(error.conflict?.settledQuestions == ["q": allowed])
            }
        }
        let stored = try await store.load()
        #expect(stored.questions["q"] == allowed)
        #expect(stored.sessions.isEmpty, "a refused commit changes nothing")
    }
}
