import FleetAppApple
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
        QuestionCategoryRegistrar.registerFixedCategories()
        application.registerForRemoteNotifications()
        model.launch(inForeground: application.applicationState != .background)
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        model.alertTokenIssued(deviceToken)
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        model.backgroundPushReceived(userInfo) ? .newData : .noData
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        model.noteProblem("Notifications are off for LFG: \(error.localizedDescription)")
    }

    // MARK: UNUserNotificationCenterDelegate

    // The center calls these off the main actor. Question alerts (their actions, a tap that opens the
    // session) are the questions library's: forwarded to the running engine's QuestionNotificationDelegate.

    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        await model.notificationArrived()
        return [.banner, .list, .sound]
    }

    nonisolated func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
    ) async {
        await model.notificationArrived()
        if let questions = await model.questionDelegate {
            await questions.userNotificationCenter(center, didReceive: response)
        }
    }
}
