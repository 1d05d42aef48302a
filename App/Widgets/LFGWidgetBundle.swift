import FleetAppApple
import SwiftUI
import WidgetKit

/// The widget extension: the fleet card (Lock Screen and the three Dynamic Island presentations, drawn
/// by FleetAppApple's `FleetActivityWidget`) and the home-screen counts widget.
@main
struct LFGWidgetBundle: WidgetBundle {
    var body: some Widget {
        FleetActivityWidget()
        FleetCountsWidget()
    }
}
