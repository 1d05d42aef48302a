import FleetCore
import Testing

@Suite("Surface budgets")
struct SurfaceTests {
    static let state = ContentState(
        working: 4, needsInput: 1,
        rows: [.fixture("a", state: .needsInput), .fixture("b"), .fixture("c")], more: 2, updatedAt: 0)

    @Test("The lock screen shows three rows, the header and the More line")
    func lockScreen() {
        let layout = SurfaceLayout(Self.state, on: .lockScreen)
        #expect(layout.rows.map(\.sid) == ["a", "b", "c"])
        #expect(layout.showsHeader)
        #expect(layout.overflow == 2)
        #expect(layout.overflowText == "2 More")
        #expect(layout.activeTotal == 5)
    }

    @Test("The expanded island shows two rows and folds the third into the overflow")
    func islandExpanded() {
        let layout = SurfaceLayout(Self.state, on: .islandExpanded)
        #expect(layout.rows.map(\.sid) == ["a", "b"])
        #expect(layout.overflow == 3)
    }

    @Test("Compact shows the accent dot and the active total; minimal only the dot")
    func compactAndMinimal() {
        let compact = SurfaceLayout(Self.state, on: .islandCompact)
        #expect(compact.rows.isEmpty && compact.showsAccentDot && compact.showsTotal && !compact.showsHeader)
        #expect(compact.accent == .amber)
        let minimal = SurfaceLayout(Self.state, on: .islandMinimal)
        #expect(minimal.rows.isEmpty && minimal.showsAccentDot && !minimal.showsTotal)
    }

    @Test("No overflow line when everything fits")
    func noOverflow() {
        let layout = SurfaceLayout(ContentState(working: 1, rows: [.fixture("a")]), on: .lockScreen)
        #expect(layout.overflowText == nil)
    }

    @Test(
        "Elapsed labels read like the card's",
        arguments: [
            (0.0, "<1m"), (59.0, "<1m"), (60.0, "1m"), (119.0, "1m"), (120.0, "2m"), (3_599.0, "59m"), (3_600.0, "1h"),
            (3_900.0, "1h 5m"), (86_400.0, "1d"), (90_000.0, "1d 1h"), (-30.0, "<1m"),
        ])
    func elapsedLabel(elapsed: Double, text: String) {
        #expect(ElapsedLabel.text(since: 1_000_000, now: 1_000_000 + elapsed) == text)
    }

    @Test("The next label change is scheduled on the minute boundary")
    func nextChange() {
        #expect(ElapsedLabel.secondsUntilNextChange(since: 0, now: 61) == 59)
        #expect(ElapsedLabel.secondsUntilNextChange(since: 0, now: 120) == 60)
    }
}
