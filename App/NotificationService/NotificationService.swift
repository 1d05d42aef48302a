import FleetApp
import FleetAppApple
import Foundation
import UserNotifications

/// The notification service extension: iOS hands it every alert with `mutable-content: 1` before showing it.
/// It notes the arrival for the diagnostics page, then ``SealedAlertService`` opens a privacy-mode alert with
/// the phone's key (kept in the App Group's Keychain group, where the app made it) and gives the question's
/// category its real options as buttons. Out of time, iOS shows the alert as it arrived (the placeholder).
final class NotificationService: SealedAlertService {
    override func sealKeyring() -> (any SealKeyring)? { AppGroup.sealKeyring }

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        AppGroup.storage?.set(String(Date().timeIntervalSince1970), forKey: AppGroup.lastNotificationKey)
        super.didReceive(request, withContentHandler: contentHandler)
    }
}
