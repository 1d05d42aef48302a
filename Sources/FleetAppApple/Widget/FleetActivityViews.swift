#if canImport(SwiftUI)
import FleetApp
import FleetCore
import SwiftUI

extension Accent {
    /// The accent as a SwiftUI colour (amber #FF9F0A when anything waits on a person, else green #30D158).
    public var color: Color {
        switch self {
        case .amber: Color(red: 1.0, green: 0x9F / 255.0, blue: 0x0A / 255.0)
        case .green: Color(red: 0x30 / 255.0, green: 0xD1 / 255.0, blue: 0x58 / 255.0)
        }
    }
}

/// The 8 pt accent dot (compact leading, minimal, expanded header).
public struct AccentDot: View {
    let accent: Accent
    public init(_ accent: Accent) { self.accent = accent }
    public var body: some View {
        Circle().fill(accent.color).frame(width: 8, height: 8)
    }
}

/// The header line: active total, working, needs input. Always drawn first so it is never clipped.
public struct FleetHeaderView: View {
    let layout: SurfaceLayout
    let freshness: CardFreshness
    public init(_ layout: SurfaceLayout, freshness: CardFreshness = CardFreshness(isStale: false)) {
        self.layout = layout
        self.freshness = freshness
    }
    public var body: some View {
        HStack(spacing: 8) {
            if layout.showsAccentDot {
                if freshness.mutesAccent { Circle().fill(Color.gray).frame(width: 8, height: 8) } else { AccentDot(layout.accent) }
            }
            Text("\(layout.activeTotal)").font(.headline.monospacedDigit())
            Text(freshness.activeLabel).font(.subheadline).foregroundStyle(.secondary)
            Spacer()
            Label("\(layout.working)", systemImage: "bolt.fill").foregroundStyle(Accent.green.color)
            Label("\(layout.needsInput)", systemImage: "hand.raised.fill").foregroundStyle(Accent.amber.color)
        }
        .font(.subheadline.monospacedDigit())
    }
}

/// One session row: state mark, title, elapsed time. A no-news row (guard `no-news`: busy, but silent past
/// the silence rule) is never drawn as confidently working: its mark is grey and, in place of the elapsed
/// time, its line says how long nothing was heard ("No news for 12m", `Row.noNewsLine`), on one line so the
/// card keeps its height budget.
public struct FleetRowView: View {
    let row: Row
    let freshness: CardFreshness
    public init(_ row: Row, freshness: CardFreshness = CardFreshness(isStale: false)) {
        self.row = row
        self.freshness = freshness
    }
    var markColor: Color {
        if row.isNoNews { return Color.gray }
        return row.state == .needsInput ? Accent.amber.color : Accent.green.color
    }
    public var body: some View {
        HStack(spacing: 6) {
            Circle().fill(markColor).frame(width: 6, height: 6)
            Text(row.title.isEmpty ? row.sid.rawValue : row.title).lineLimit(1).truncationMode(.tail)
            Spacer(minLength: 4)
            if freshness.showsLiveElapsed {
                if row.isNoNews {
                    NoNewsText(row).foregroundStyle(.secondary)
                } else {
                    ElapsedTimeText(since: row.since).foregroundStyle(.secondary)
                }
            }
        }
        .font(.footnote)
    }
}

/// The rows and the "N More" line of a surface with a row budget (lock screen, expanded island).
public struct FleetRowsView: View {
    let layout: SurfaceLayout
    let freshness: CardFreshness
    public init(_ layout: SurfaceLayout, freshness: CardFreshness = CardFreshness(isStale: false)) {
        self.layout = layout
        self.freshness = freshness
    }
    public var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            if let wordless = layout.wordless {
                WordlessRowsView(wordless, rows: layout.rows, freshness: freshness)
            } else {
                ForEach(layout.rows, id: \.sid) { FleetRowView($0, freshness: freshness) }
            }
            if let overflow = layout.overflowText {
                Text(overflow).font(.caption).foregroundStyle(.secondary)
            }
        }
    }
}

/// A privacy push's rows (no titles): how many sessions and where to go, then one phase dot and elapsed time
/// per row, so the card reads as meant rather than as blank titles.
public struct WordlessRowsView: View {
    let card: WordlessCard
    let rows: [Row]
    let freshness: CardFreshness
    public init(_ card: WordlessCard, rows: [Row], freshness: CardFreshness = CardFreshness(isStale: false)) {
        self.card = card
        self.rows = rows
        self.freshness = freshness
    }
    public var body: some View {
        VStack(alignment: .leading, spacing: 2) {
            Text(card.headline).font(.footnote.weight(.semibold))
            Text(card.guidance).font(.caption).foregroundStyle(.secondary)
            HStack(spacing: 10) {
                ForEach(rows, id: \.sid) { row in
                    HStack(spacing: 4) {
                        Circle().fill(row.state == .needsInput ? Accent.amber.color : Accent.green.color)
                            .frame(width: 6, height: 6)
                        if freshness.showsLiveElapsed { ElapsedTimeText(since: row.since).foregroundStyle(.secondary) }
                    }
                }
            }
            .font(.caption2.monospacedDigit())
        }
    }
}

/// The lock screen card: header, the question (with Allow / Deny for a confirm question), then the rows
/// left of the ~160 pt budget, then the overflow line. Tapping it opens the question's (or first row's) session.
public struct FleetLockScreenView: View {
    let layout: SurfaceLayout
    let freshness: CardFreshness
    public init(_ state: ContentState, isStale: Bool = false) {
        layout = SurfaceLayout(state, on: .lockScreen)
        freshness = CardFreshness(isStale: isStale)
    }

    /// Where tapping the card leads (the `widgetURL`).
    public var link: AppLink { AppLink(opening: layout) }
    public var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            FleetHeaderView(layout, freshness: freshness)
            if let line = freshness.statusLine { Text(line).font(.caption).foregroundStyle(.secondary) }
            // The question takes the room of the rows it needs (SurfaceLayout), never more height.
            #if canImport(ActivityKit) && canImport(AppIntents)
            if #available(iOS 17.0, *), !freshness.mutesAccent { FleetQuestionView(layout) }
            #endif
            FleetRowsView(layout, freshness: freshness)
        }
        .padding(14)
        .frame(maxWidth: .infinity, alignment: .topLeading)
        .overlay(alignment: .leading) {
            Rectangle().fill(freshness.mutesAccent ? Color.gray : layout.accent.color).frame(width: 3)
        }
    }
}
#endif
