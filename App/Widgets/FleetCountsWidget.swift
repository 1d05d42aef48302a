import FleetApp
import FleetAppApple
import FleetCore
import SwiftUI
import WidgetKit

/// One moment of the counts widget: the snapshot the app last wrote (nil before the app ever ran).
struct FleetCountsEntry: TimelineEntry {
    let date: Date
    let snapshot: FleetCountsSnapshot?
}

/// Reads the app's snapshot from the App Group. The app asks WidgetKit to reload when the counts change;
/// the timeline also renews every 15 minutes so the "as of" age stays honest if the app never runs.
struct FleetCountsProvider: TimelineProvider {
    func placeholder(in context: Context) -> FleetCountsEntry {
        FleetCountsEntry(date: .now, snapshot: nil)
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (FleetCountsEntry) -> Void) {
        completion(current())
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<FleetCountsEntry>) -> Void) {
        completion(Timeline(entries: [current()], policy: .after(Date.now.addingTimeInterval(15 * 60))))
    }

    func current() -> FleetCountsEntry {
        FleetCountsEntry(date: .now, snapshot: AppGroup.storage.flatMap(FleetCountsSnapshot.load(from:)))
    }
}

/// The small home-screen (and Lock Screen accessory) widget of the counts: active, working, needs you.
struct FleetCountsWidget: Widget {
    static let kind = "LFGFleetCounts"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: Self.kind, provider: FleetCountsProvider()) { entry in
            FleetCountsView(entry: entry)
                .containerBackground(Color.black, for: .widget)
                .widgetURL(URL(string: "lfg://sessions"))
        }
        .configurationDisplayName("Agents")
        .description("How many agents are working and how many need you.")
        .supportedFamilies([.systemSmall, .accessoryRectangular, .accessoryInline])
    }
}

struct FleetCountsView: View {
    let entry: FleetCountsEntry
    @Environment(\.widgetFamily) private var family

    var body: some View {
        if let snapshot = entry.snapshot {
            let layout = SurfaceLayout(snapshot.content, on: .lockScreen)
            switch family {
            case .accessoryInline:
                Text(snapshot.summary)
            default:
                VStack(alignment: .leading, spacing: 4) {
                    HStack(spacing: 6) {
                        AccentDot(layout.accent)
                        Text(snapshot.isTrustworthy ? "\(layout.activeTotal)" : "?").font(.title.monospacedDigit())
                        Text("active").font(.caption).foregroundStyle(.secondary)
                    }
                    Label("\(layout.working) working", systemImage: "bolt.fill").foregroundStyle(Accent.green.color)
                    Label("\(layout.needsInput) need you", systemImage: "hand.raised.fill")
                        .foregroundStyle(Accent.amber.color)
                    Text(Date(timeIntervalSince1970: snapshot.writtenAt), style: .relative)
                        .font(.caption2).foregroundStyle(.secondary)
                }
                .font(.caption.monospacedDigit())
            }
        } else {
            Text("Open LFG to pair with your server").font(.caption)
        }
    }
}
