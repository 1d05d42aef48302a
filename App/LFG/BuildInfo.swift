import FleetCore
import Foundation

/// Facts fixed at build time, read from Info.plist keys `App/project.yml` fills from build settings.
enum BuildInfo {
    /// The APNs environment this build's tokens belong to: `sandbox` for Debug builds (Xcode installs),
    /// `production` for Release (TestFlight, App Store), from `LFGPushEnvironment`. It must match the
    /// `aps-environment` entitlement, or the server pushes to the wrong gateway and APNs answers
    /// BadDeviceToken.
    static var pushEnvironment: PushEnvironment {
        let value = Bundle.main.object(forInfoDictionaryKey: "LFGPushEnvironment") as? String
        return value.flatMap(PushEnvironment.init(rawValue:)) ?? .sandbox
    }
}
