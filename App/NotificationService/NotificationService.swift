import Foundation
import UserNotifications

/// The notification service extension: iOS hands it every alert with `mutable-content: 1` before showing
/// it. Privacy mode's sealed alerts are opened here (the privacy work fills this in, with the key in the
/// App Group's keychain); today it notes the arrival for the diagnostics page and passes the alert on
/// unchanged. It must call `contentHandler` exactly once, within iOS's ~30 s budget.
final class NotificationService: UNNotificationServiceExtension {
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var original: UNNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        original = request.content
        AppGroup.storage?.set(String(Date().timeIntervalSince1970), forKey: AppGroup.lastNotificationKey)
        contentHandler(request.content)
        self.contentHandler = nil
    }

    override func serviceExtensionTimeWillExpire() {
        // Out of time: show what arrived rather than nothing.
        if let contentHandler, let original { contentHandler(original) }
        contentHandler = nil
    }
}
