import FleetCore
import Testing

@Suite("Content comparison")
struct ContentComparisonTests {
    static let base = ContentState(working: 1, needsInput: 1, rows: [.fixture("a"), .fixture("b", state: .needsInput)], more: 0, updatedAt: 100)

    @Test("updatedAt never takes part, so an unchanged fleet is never re-pushed")
    func updatedAtExcluded() {
        var later = Self.base
        later.updatedAt = 102
        #expect(later.isSame(as: Self.base))
        #expect(!later.isSame(as: Self.base, guards: .without(.updatedAtExcluded)))
    }

    @Test(
        "Every renderable field takes part",
        arguments: [
            { (s: inout ContentState) in s.working += 1 },
            { (s: inout ContentState) in s.needsInput += 1 },
            { (s: inout ContentState) in s.more += 1 },
            { (s: inout ContentState) in s.rows[0].title = "Renamed" },
            { (s: inout ContentState) in s.rows[0].since += 1 },
            { (s: inout ContentState) in s.rows[0].state = .needsInput },
            { (s: inout ContentState) in s.rows[0].sid = "z" },
            { (s: inout ContentState) in s.rows.removeLast() },
        ] as [@Sendable (inout ContentState) -> Void])
    func renderableFields(change: @Sendable (inout ContentState) -> Void) {
        var changed = Self.base
        change(&changed)
        #expect(!changed.isSame(as: Self.base))
    }

    @Test("A card adopted with no content is never the same, so the next tick pushes current content")
    func adoptedWithoutContent() {
        let unknown: ContentState? = nil
        #expect(!unknown.isSame(as: Self.base))
        #expect(Optional(Self.base).isSame(as: Self.base))
    }
}
