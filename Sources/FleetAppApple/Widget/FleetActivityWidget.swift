#if canImport(ActivityKit) && canImport(WidgetKit) && canImport(SwiftUI)
import ActivityKit
import FleetApp
import FleetCore
import SwiftUI
import WidgetKit

/// The fleet card's one ActivityConfiguration, rendering FleetCore's surface budgets in four places.
///
/// The widget extension's bundle lists it: `@main struct LFGWidgets: WidgetBundle { var body: some
/// Widget { FleetActivityWidget() } }`.
public struct FleetActivityWidget: Widget {
    public init() {}

    public var body: some WidgetConfiguration {
        ActivityConfiguration(for: LFGFleetAttributes.self) { context in
            // A card past its stale-date says so instead of pretending to be live (CardFreshness).
            let lockScreen = FleetLockScreenView(context.state, isStale: context.isStale)
            lockScreen
                .activityBackgroundTint(Color.black.opacity(0.6))
                .widgetURL(lockScreen.link.url)
        } dynamicIsland: { context in
            let expanded = SurfaceLayout(context.state, on: .islandExpanded)
            let compact = SurfaceLayout(context.state, on: .islandCompact)
            let minimal = SurfaceLayout(context.state, on: .islandMinimal)
            return DynamicIsland {
                // Expanded: 2 rows, the third folded into the overflow count.
                DynamicIslandExpandedRegion(.leading) {
                    AccentDot(expanded.accent).padding(.leading, 6)
                }
                DynamicIslandExpandedRegion(.bottom) {
                    VStack(alignment: .leading, spacing: 4) {
                        FleetHeaderView(expanded, freshness: CardFreshness(isStale: context.isStale))
                        if let line = expanded.questionLine {
                            Text(line).font(.footnote.weight(.semibold)).foregroundStyle(Accent.amber.color).lineLimit(1)
                        }
                        FleetRowsView(expanded, freshness: CardFreshness(isStale: context.isStale))
                    }
                }
            } compactLeading: {
                // An 8 pt dot, padded 6 pt off the sensor cutout.
                AccentDot(compact.accent).padding(.leading, 6)
            } compactTrailing: {
                Text("\(compact.activeTotal)")
                    .font(.caption.monospacedDigit())
                    .foregroundStyle(compact.accent.color)
                    .padding(.trailing, 6)
            } minimal: {
                // Shared with another app: the same dot, no separate treatment.
                AccentDot(minimal.accent)
            }
            .keylineTint(expanded.accent.color)
            .widgetURL(AppLink(opening: expanded).url)
        }
    }
}
#endif
