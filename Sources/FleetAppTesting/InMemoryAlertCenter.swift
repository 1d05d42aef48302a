import FleetApp
import FleetCore

/// The phone's notification center in memory: the question alerts delivered and still shown, and the
/// notices the app posted. Pushes are delivered by whoever plays APNs (the demo, a test).
public final class InMemoryAlertCenter: AlertCenter {
    /// One delivered alert, as the lock screen shows it.
    public struct Delivered: Hashable, Sendable {
        public var identifier: String
        public var alert: QuestionAlert
        public var title: String
        public var body: String
        /// The category the notification shows, so its buttons: the one the Notification Service Extension
        /// registered for this question, or the kind's fixed one.
        public var category: NotificationCategoryDescription
    }

    /// The alerts on the lock screen, oldest first.
    public private(set) var delivered: [Delivered] = []
    /// Every notice the app showed, oldest first.
    public private(set) var notices: [AnswerNotice] = []
    /// Every identifier the app asked to remove, in order.
    public private(set) var removals: [String] = []

    public init() {}

    /// APNs delivers an alert: one with the same identifier (its collapse id) replaces the one shown.
    /// `category` is what the extension registered for it (nil: the question's own, made from its options).
    public func deliver(
        _ alert: QuestionAlert, title: String, body: String, category: NotificationCategoryDescription? = nil
    ) {
        delivered.removeAll { $0.identifier == alert.notificationIdentifier }
        delivered.append(Delivered(
            identifier: alert.notificationIdentifier, alert: alert, title: title, body: body,
            category: category ?? QuestionCategories.category(for: alert)))
    }

    public func removeDeliveredAlerts(withIdentifiers identifiers: [String]) {
        removals += identifiers
        delivered.removeAll { identifiers.contains($0.identifier) }
    }

    public func show(_ notice: AnswerNotice) { notices.append(notice) }
}
