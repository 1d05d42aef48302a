import FleetApp
import FleetAppApple
import FleetCore
import SwiftUI

/// Every session, grouped by host, with its state and how long it has been in it. The banner on top says
/// how current the list is: live, refreshing by fetches, or unreachable (and since when).
struct SessionsView: View {
    @Environment(AppModel.self) private var model

    var body: some View {
        List {
            Section { ConnectionBanner(status: model.status) }
            ProblemBanner()
            if model.sections.isEmpty {
                ContentUnavailableView(
                    "No sessions", systemImage: "moon.zzz",
                    description: Text("Agents with the LFG hook installed show up here as they start."))
            }
            ForEach(model.sections) { section in
                Section {
                    ForEach(section.rows) { row in
                        NavigationLink {
                            SessionDetailView(sid: row.sid)
                        } label: {
                            SessionRowView(row: row)
                        }
                    }
                } header: {
                    HostHeader(section: section)
                }
            }
        }
        .navigationTitle("Sessions")
        .refreshable { await MainActor.run { model.refresh() } }
        // A tapped question alert or an lfg://session/... link opens that session.
        .navigationDestination(item: Binding(get: { model.openedSession }, set: { model.openedSession = $0 })) { sid in
            SessionDetailView(sid: sid)
        }
    }
}

struct HostHeader: View {
    let section: SessionListSection

    var body: some View {
        HStack {
            Text(section.host.rawValue)
            if section.isHostDown {
                Label("down", systemImage: "wifi.slash").foregroundStyle(Color.orange)
            }
        }
    }
}

struct SessionRowView: View {
    let row: SessionListRow

    var body: some View {
        HStack(spacing: 8) {
            Circle().fill(StateColor.of(row.displayState)).frame(width: 8, height: 8)
            VStack(alignment: .leading, spacing: 2) {
                Text(row.displayTitle).lineLimit(1)
                Text(row.stateLabel + (row.step.map { " · \($0)" } ?? "")).font(.caption).foregroundStyle(.secondary)
            }
            Spacer()
            if let since = row.since { ElapsedTimeText(since: since).font(.caption).foregroundStyle(.secondary) }
        }
    }
}

/// The colour of each display state, matching the card's accents.
enum StateColor {
    static func of(_ state: DisplayState) -> Color {
        switch state {
        case .needsInput: Accent.amber.color
        case .working: Accent.green.color
        // No news is not confidently working (guard `no-news`): grey, as the card draws its row.
        case .noNews, .blocked, .idle: Color.gray
        case .unknown: Color.orange
        }
    }
}

/// How current the list is, in words that never claim "live" when it is not.
struct ConnectionBanner: View {
    let status: ConnectionStatus

    var body: some View {
        TimelineView(.periodic(from: .now, by: 30)) { context in
            VStack(alignment: .leading, spacing: 2) {
                Label(status.headline, systemImage: status.isLive ? "dot.radiowaves.left.and.right" : "exclamationmark.circle")
                    .foregroundStyle(status.isLive ? Accent.green.color : Color.orange)
                if let detail = status.detail(now: context.date.timeIntervalSince1970) {
                    Text(detail).font(.caption).foregroundStyle(.secondary)
                }
            }
        }
    }
}
