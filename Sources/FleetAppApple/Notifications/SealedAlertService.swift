#if canImport(UserNotifications) && canImport(CryptoKit) && canImport(Security)
import FleetApp
import FleetCore
import Foundation
import UserNotifications

/// The Notification Service Extension for question alerts (contracts 8.2, 8.3): opens a sealed alert with the
/// phone's own key, shows its words, puts the opened options into `userInfo` (the tapped button answers with
/// them) and registers the question's category with those options as its buttons. The app's extension target
/// subclasses it and says where the key is kept (``sealKeyring()``: the Keychain group it shares with the app).
///
/// What to show is ``ServicedAlert`` (FleetApp, tested on Linux); only the copying into the notification lives
/// here. An alert that does not open (a replaced key, damage) keeps the placeholder it carries: never anything else.
open class SealedAlertService: UNNotificationServiceExtension {
    /// The phone's sealing key pair; nil when the extension cannot reach it (every sealed alert keeps its placeholder).
    open func sealKeyring() -> (any SealKeyring)? { nil }

    open override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        var payload: [String: Any] = [:]
        for (name, value) in content.userInfo { if let name = name as? String { payload[name] = value } }
        let served = ServicedAlert.serve(payload, keyring: sealKeyring())
        if let shown = served.shown {
            content.title = shown.title
            content.body = shown.body
            content.userInfo = served.userInfo(payload)
        }
        guard let alert = served.alert, served.category != nil else {
            contentHandler(content)
            return
        }
        let handler = UncheckedContentHandler(contentHandler: contentHandler, content: content)
        Task {
            let identifier = await QuestionCategoryRegistrar.register(for: alert)
            handler.finish(categoryIdentifier: identifier)
        }
    }
}

/// iOS's content handler and the content, handed to the task that registers the category (the extension calls
/// the handler exactly once, from that task).
private final class UncheckedContentHandler: @unchecked Sendable {
    let contentHandler: (UNNotificationContent) -> Void
    let content: UNMutableNotificationContent

    init(contentHandler: @escaping (UNNotificationContent) -> Void, content: UNMutableNotificationContent) {
        self.contentHandler = contentHandler
        self.content = content
    }

    func finish(categoryIdentifier: String) {
        content.categoryIdentifier = categoryIdentifier
        contentHandler(content)
    }
}
#endif
