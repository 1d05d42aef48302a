import Foundation
import UIKit
import UserNotifications

/// Owns the ``AppModel`` and the two things only an application delegate receives: the APNs device
/// token (for alerts and question notifications) and the notification center's callbacks.
final class AppDelegate: NSObject, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    let model = AppModel.live()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        application.registerForRemoteNotifications()
        model.launch(inForeground: application.applicationState != .background)
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        model.alertTokenIssued(deviceToken)
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        model.noteProblem("Notifications are off for LFG: \(error.localizedDescription)")
    }

    // MARK: UNUserNotificationCenterDelegate

    // The center calls these off the main actor; only Sendable values (the payload as JSON) cross over.

    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        let payload = Self.payload(of: notification)
        await model.notificationArrived(payload: payload)
        return [.banner, .list, .sound]
    }

    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    ) async {
        let payload = Self.payload(of: response.notification)
        await model.notificationOpened(action: response.actionIdentifier, payload: payload)
    }

    /// The notification's APNs payload as JSON bytes (nil when it holds something JSON cannot carry).
    nonisolated static func payload(of notification: UNNotification) -> Data? {
        let userInfo = notification.request.content.userInfo
        guard JSONSerialization.isValidJSONObject(userInfo) else { return nil }
        return try? JSONSerialization.data(withJSONObject: userInfo)
    }
}
