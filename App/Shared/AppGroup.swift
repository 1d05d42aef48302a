import FleetApp
import FleetAppApple
import Foundation

/// The App Group the app, its widget extension and its notification service extension share: the
/// settings, the device id, the widget's counts snapshot and the last-notification time live there.
///
/// Its identifier comes from the `LFGAppGroup` Info.plist key, which `App/project.yml` fills from the
/// `LFG_APP_GROUP` build setting, so changing team or bundle id changes it in one place.
enum AppGroup {
    /// The App Group identifier (`group.<bundle id>`), from Info.plist.
    static var identifier: String {
        Bundle.main.object(forInfoDictionaryKey: "LFGAppGroup") as? String ?? "group.dev.lfg.app"
    }

    /// The shared storage, or nil when the App Group is not set up (the entitlement is missing): the
    /// caller says so on screen instead of quietly using storage the widget cannot read.
    static var storage: UserDefaultsStorage? {
        UserDefaults(suiteName: identifier).map(UserDefaultsStorage.init)
    }

    /// The phone's sealing key pair (privacy mode's sealed alerts): one Keychain item in the App Group's access
    /// group, so the app registers the key the notification service extension opens with.
    static var sealKeyring: KeychainSealKeyring {
        KeychainSealKeyring(service: "lfg.sealKey", accessGroup: identifier)
    }

    /// Where the app and the extension note when a notification last arrived (Unix seconds, as text).
    static let lastNotificationKey = "lfg.diagnostics.lastNotificationAt"
}
