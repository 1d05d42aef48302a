#if canImport(UIKit) && canImport(UserNotifications)
import FleetApp
import FleetCore
import Foundation
import UserNotifications

/// `UNUserNotificationCenter` behind ``AlertCenter``: the only file that removes or posts notifications.
public final class UserNotificationAlertCenter: AlertCenter {
    let center: UNUserNotificationCenter

    public init(center: UNUserNotificationCenter = .current()) { self.center = center }

    public func removeDeliveredAlerts(withIdentifiers identifiers: [String]) {
        center.removeDeliveredNotifications(withIdentifiers: identifiers)
    }

    public func show(_ notice: AnswerNotice) {
        let content = UNMutableNotificationContent()
        content.title = "Your answer"
        content.body = notice.text
        content.threadIdentifier = notice.sid?.rawValue ?? ""
        // A fact about an answer already given: no sound, no buzz, never breaks through Focus.
        content.interruptionLevel = .passive
        let request = UNNotificationRequest(
            identifier: "notice." + notice.questionId.rawValue, content: content, trigger: nil)
        center.add(request) { error in
            if let error { print("lfg: the answer notice could not be shown: \(error)") }
        }
    }
}

/// The question categories of ``QuestionCategories`` as `UNNotificationCategory`s.
public enum QuestionCategoryRegistrar {
    /// Registers the three fixed categories; call at launch, before asking for notification permission.
    public static func registerFixedCategories(on center: UNUserNotificationCenter = .current()) {
        center.setNotificationCategories(Set(QuestionCategories.registered.map(category)))
    }

    /// Registers the category made for one alert (its real options as buttons) and returns its identifier,
    /// for the notification service extension to set as the alert's `categoryIdentifier`.
    public static func register(for alert: QuestionAlert, on center: UNUserNotificationCenter = .current()) async
        -> String
    {
        let made = QuestionCategories.category(for: alert)
        let existing = await center.notificationCategories()
        let described = existing.map { category in
            NotificationCategoryDescription(identifier: category.identifier, actions: [])
        }
        let kept = QuestionCategories.merging(made, into: described)
        let byIdentifier = Dictionary(existing.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        let categories = kept.map { description in
            description.identifier == made.identifier ? category(made) : byIdentifier[description.identifier] ?? category(description)
        }
        center.setNotificationCategories(Set(categories))
        return made.identifier
    }

    static func category(_ description: NotificationCategoryDescription) -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: description.identifier, actions: description.actions.map(action), intentIdentifiers: [],
            options: [])
    }

    static func action(_ description: NotificationActionDescription) -> UNNotificationAction {
        // Answers need the phone unlocked: a locked phone in someone else's hand must not allow a command.
        var options: UNNotificationActionOptions = [.authenticationRequired]
        if description.isDestructive { options.insert(.destructive) }
        if let input = description.textInput {
            return UNTextInputNotificationAction(
                identifier: description.identifier, title: description.title, options: options,
                textInputButtonTitle: input.buttonTitle, textInputPlaceholder: input.placeholder)
        }
        return UNNotificationAction(identifier: description.identifier, title: description.title, options: options)
    }
}
#endif
