// The same calls done right: this fixture must PASS, so the failing fixtures fail for their one mistake only.
import ActivityKit
import SwiftUI
import WidgetKit

struct FixtureAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable { var count: Int }
}

func startCard() throws {
    _ = try Activity.request(
        attributes: FixtureAttributes(), content: ActivityContent(state: .init(count: 1), staleDate: nil), pushType: .token)
}

struct FixtureView: View {
    var body: some View {
        Text("fleet").padding(4)
    }
}

struct FixtureWidget: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: FixtureAttributes.self) { context in
            Text("\(context.state.count)")
        } dynamicIsland: { context in
            DynamicIsland {
                DynamicIslandExpandedRegion(.bottom) { Text("\(context.state.count)") }
            } compactLeading: {
                Circle().fill(Color.green)
            } compactTrailing: {
                Text("\(context.state.count)")
            } minimal: {
                EmptyView()
            }
        }
    }
}
