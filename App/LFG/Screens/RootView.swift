import FleetApp
import SwiftUI

/// Pairing until the phone has a server; then the sessions, settings and diagnostics tabs.
struct RootView: View {
    @Environment(AppModel.self) private var model

    var body: some View {
        if model.settings.server == nil {
            NavigationStack { PairingView() }
        } else {
            TabView {
                NavigationStack { SessionsView() }
                    .tabItem { Label("Sessions", systemImage: "list.bullet") }
                NavigationStack { SettingsView() }
                    .tabItem { Label("Settings", systemImage: "gearshape") }
                NavigationStack { DiagnosticsView() }
                    .tabItem { Label("Diagnostics", systemImage: "stethoscope") }
            }
        }
    }
}

/// The last problem, dismissible, above a screen's content.
struct ProblemBanner: View {
    @Environment(AppModel.self) private var model

    var body: some View {
        if let problem = model.problem {
            HStack(alignment: .top) {
                Image(systemName: "exclamationmark.triangle.fill").foregroundStyle(Color.orange)
                Text(problem).font(.footnote)
                Spacer()
                Button("Dismiss") { model.problem = nil }.font(.footnote)
            }
        }
    }
}
