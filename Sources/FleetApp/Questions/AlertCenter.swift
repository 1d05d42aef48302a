import FleetCore

/// What the app uses of the notification center for question alerts (`UNUserNotificationCenter` on the
/// phone, ``InMemoryAlertCenter`` in tests and the demo). Synchronous from the engine's side, like
/// ``ActivityHost``: an implementation may carry a call out on a task it owns.
public protocol AlertCenter: AnyObject {
    /// Removes the delivered notifications with these identifiers (a question alert's is its question id);
    /// identifiers with nothing delivered are ignored.
    func removeDeliveredAlerts(withIdentifiers identifiers: [String])
    /// Shows the person a quiet notification about an answer (in the question's session thread).
    func show(_ notice: AnswerNotice)
}
