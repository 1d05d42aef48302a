import FleetCore
import FleetCoreTesting
import Testing

/// The incremental reduction against the one rule: for every random fleet and every random run of changes,
/// a ``FleetTally`` says what ``FleetReducer/reduce(_:previousSince:hiddenDirs:now:guards:silence:)`` says.
@Suite("The incremental fleet reduction")
struct FleetTallyTests {
    static let folders = ["/w/a", "/w/b", "/w/b/c", "/w/d", ""]
    static let views: [HiddenDirs] = [[], ["/w/b"], ["/w/a", "/w/d"], ["/"]]

    @Test("A tally built from every part equals the full reduction", arguments: 1...20)
    func builtTallyEqualsFullReduction(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let now: UnixTime = 1_000
        let sessions = (0..<Int.random(in: 0...300, using: &random)).map { Self.session($0, at: now, using: &random) }
        let previous = Self.previousSince(sessions, using: &random)
        for guards in [GuardSet.all, .without(.maxRows), .without(.noNews)] {
            let parts = sessions.map {
                FleetReducer.part(of: $0, previousSince: previous, now: now, guards: guards, silence: Self.silence)
            }
            for hidden in Self.views {
                let tally = FleetTally(hiddenDirs: hidden, guards: guards, parts: parts)
                let full = FleetReducer.reduce(
                    sessions, previousSince: previous, hiddenDirs: hidden, now: now, guards: guards, silence: Self.silence)
                Self.expect(tally, equals: full, now: now)
            }
        }
    }

    @Test("A tally changed one session at a time equals the full reduction after every change", arguments: 1...20)
    func changedTallyEqualsFullReduction(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var now: UnixTime = 1_000
        var sessions: [SessionID: FleetSession] = [:]
        for index in 0..<Int.random(in: 0...400, using: &random) {
            let session = Self.session(index, at: now, using: &random)
            sessions[session.sid] = session
        }
        // The watcher's bookkeeping: every session's part, and the baselines of the unfiltered view.
        var since: SinceMap = [:]
        var parts: [SessionID: SessionPart] = [:]
        for session in sessions.values {
            let part = FleetReducer.part(of: session, previousSince: since, now: now, silence: Self.silence)
            parts[session.sid] = part
            since[session.sid] = part.since
        }
        var tallies = Self.views.map { FleetTally(hiddenDirs: $0, parts: parts.values) }
        for _ in 0..<60 {
            now += Double.random(in: 1...30, using: &random)
            let before = tallies.map { Self.reduced($0, now: now) }
            var changedViews = Array(repeating: false, count: tallies.count)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0...(sessions.count + 3), using: &random)
                let sid = SessionID("s\(index)")
                let next = Bool.random(using: &random) && sessions[sid] != nil
                    ? nil : Self.session(index, at: now, using: &random)
                sessions[sid] = next
                let part = next.map { FleetReducer.part(of: $0, previousSince: since, now: now, silence: Self.silence) }
                since[sid] = part?.since
                for view in tallies.indices where tallies[view].replace(parts[sid], with: part) { changedViews[view] = true }
                parts[sid] = part
            }
            // What the watcher's timers do: look again at sessions that may have turned quiet, and at questions
            // past their expiry.
            for (sid, session) in sessions where session.heardAt != nil || (parts[sid]?.changesAt ?? .infinity) <= now {
                let part = FleetReducer.part(of: session, previousSince: since, now: now, silence: Self.silence)
                since[sid] = part.since
                for view in tallies.indices where tallies[view].replace(parts[sid], with: part) { changedViews[view] = true }
                parts[sid] = part
            }
            for (view, tally) in tallies.enumerated() {
                let full = FleetReducer.reduce(
                    Array(sessions.values), previousSince: since, hiddenDirs: tally.hiddenDirs, now: now,
                    silence: Self.silence)
                Self.expect(tally, equals: full, now: now)
                // A view that says it did not change really did not (the watcher then decides nothing for it).
                if !changedViews[view] { #expect(Self.reduced(tally, now: now) == before[view]) }
            }
        }
    }

    /// What a reader of the view sees, with the time left out.
    static func reduced(_ tally: FleetTally, now: UnixTime) -> [String] {
        var content = tally.contentState(now: now)
        content.updatedAt = 0
        return ["\(content)", "\(tally.activeTotal)", "\(tally.isTrustworthy)", "\(tally.membership)"]
    }

    static func expect(_ tally: FleetTally, equals full: FleetReduction, now: UnixTime) {
        #expect(tally.contentState(now: now) == full.contentState)
        #expect(tally.activeTotal == full.activeTotal)
        #expect(tally.isTrustworthy == full.isTrustworthy)
        #expect(tally.baselines == full.since.count)
    }

    static let silence = SilenceRule(noNewsAfter: 600)

    /// A random session: any mix of states, folders, prompts (some answerable, some expiring), titles and
    /// silences, with `since` values that often tie so the sid decides the order.
    static func session(_ index: Int, at now: UnixTime, using random: inout SeededRandom) -> FleetSession {
        let prompt: Prompt? =
            switch Int.random(in: 0..<6, using: &random) {
            case 0: Prompt(kind: .permission, text: "Run it?")
            case 1: Prompt(id: "q\(index)", kind: .question, text: "Which \(index)?", options: ["a", "b"])
            case 2: Prompt(id: "p\(index)", kind: .permission, text: "Edit?", expiresAt: now + 300)
            default: nil
            }
        return FleetSession(
            sid: SessionID("s\(index)"),
            report: SessionReport(
                title: String(repeating: "t", count: Int.random(in: 0...3, using: &random)) + "\(index)",
                cwd: folders.randomElement(using: &random)!, busy: Bool.random(using: &random),
                blocked: Int.random(in: 0..<8, using: &random) == 0, prompt: prompt,
                archived: Int.random(in: 0..<10, using: &random) == 0),
            isHostDown: Int.random(in: 0..<12, using: &random) == 0,
            heardAt: Bool.random(using: &random) ? now - Double(Int.random(in: 0...1_200, using: &random)) : nil)
    }

    static func previousSince(_ sessions: [FleetSession], using random: inout SeededRandom) -> SinceMap {
        var since: SinceMap = [:]
        for session in sessions where Bool.random(using: &random) {
            let state: RowState = Bool.random(using: &random) ? .working : .needsInput
            since[session.sid] = SinceEntry(state: state, since: Double(Int.random(in: 0...5, using: &random) * 100))
        }
        return since
    }
}
