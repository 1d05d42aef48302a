import SwiftUI

/// The LFG app: the session list, the fleet card's driver, pairing and settings.
@main
struct LFGApp: App {
    /// The app delegate owns the model: it exists before any scene and receives the APNs device token.
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(appDelegate.model)
                .onOpenURL { url in appDelegate.model.open(url) }
        }
        .onChange(of: scenePhase) { _, phase in appDelegate.model.scenePhaseChanged(to: phase) }
    }
}
