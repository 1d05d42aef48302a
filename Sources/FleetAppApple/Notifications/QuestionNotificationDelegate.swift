#if canImport(UIKit) && canImport(UserNotifications)
import FleetApp
import FleetCore
import Foundation
import UIKit
import UserNotifications

/// The app's notification delegate for question alerts: a tapped action becomes the engine's answer, a
/// tapped alert opens its session, and alerts show while the app is open. Set it as the center's
/// delegate in the app delegate's `didFinishLaunching`, before it returns.
@MainActor
public final class QuestionNotificationDelegate: NSObject, UNUserNotificationCenterDelegate {
    let driver: FleetAppDriver
    /// Opens a place in the app (the app's navigation).
    let open: @MainActor (AppLink) -> Void

    public init(driver: FleetAppDriver, open: @escaping @MainActor (AppLink) -> Void) {
        self.driver = driver
        self.open = open
    }

    public nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    ) async {
        let payload = Self.json(response.notification.request.content.userInfo)
        let actionIdentifier = response.actionIdentifier
        let typedText = (response as? UNTextInputNotificationResponse)?.userText
        await MainActor.run {
            guard let payload, let alert = QuestionAlert(payload: payload) else { return }
            let action: QuestionResponse.Action =
                switch actionIdentifier {
                case UNNotificationDefaultActionIdentifier: .opened
                case UNNotificationDismissActionIdentifier: .dismissed
                default: .action(actionIdentifier, typedText: typedText)
                }
            if let link = driver.respond(to: QuestionResponse(alert: alert, action: action)) { open(link) }
        }
        // iOS may suspend the app once this returns: let the answer's call finish first.
        await driver.waitForCalls()
    }

    public nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        [.banner, .list, .sound]
    }

    /// The notification's `userInfo` as JSON bytes, or nil when it cannot be serialized.
    nonisolated static func json(_ userInfo: [AnyHashable: Any]) -> Data? {
        let stringKeyed = Dictionary(
            userInfo.compactMap { key, value in (key as? String).map { ($0, value) } }, uniquingKeysWith: { a, _ in a })
        guard JSONSerialization.isValidJSONObject(stringKeyed) else { return nil }
        return try? JSONSerialization.data(withJSONObject: stringKeyed)
    }
}

/// The app delegate's part for questions: the alert token, and the background push that withdraws an
/// alert (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
@MainActor
public enum QuestionPushHandling {
    /// `didRegisterForRemoteNotificationsWithDeviceToken`: the token question alerts go to.
    public static func deviceTokenReceived(_ deviceToken: Data, driver: FleetAppDriver) {
        driver.alertTokenIssued(PushToken(bytes: deviceToken))
    }

    /// A background push; returns whether it was a question's withdrawal (`.newData` for iOS's completion
    /// handler), false for any other push (`.noData`).
    public static func backgroundPushReceived(_ userInfo: [AnyHashable: Any], driver: FleetAppDriver) -> Bool {
        guard let payload = QuestionNotificationDelegate.json(userInfo) else { return false }
        return driver.backgroundPushReceived(payload)
    }
}
#endif
