import APNsMock
import FleetApp
import FleetCore
import Foundation

/// A question's alert or its background withdrawal, as the phone receives it, read back from what the
/// APNs stand-in recorded (the card's pushes are ``ReceivedPush``).
public enum ReceivedNotification: Hashable, Sendable {
    /// A question alert as APNs hands it to the phone: its JSON (the notification's `userInfo`, which the
    /// phone's Notification Service Extension serves before iOS shows it), and its title and body as delivered
    /// (a private device's: no title and the placeholder).
    case alert(payload: Data, title: String, body: String)
    /// A background push, its JSON as the app's delegate gets it.
    case background(Data)

    /// The notification a delivered request carries; nil for anything else (a Live Activity push, a
    /// rejected request, an alert that is not a question's).
    public static func reading(_ record: MockRecord) -> ReceivedNotification? {
        guard record.isDelivered, let body = record.bodyJSON as? [String: Any],
            let data = try? JSONSerialization.data(withJSONObject: body)
        else { return nil }
        switch record.pushType {
        case "alert":
            guard QuestionAlert(payload: data) != nil,
                let words = (body["aps"] as? [String: Any])?["alert"] as? [String: Any]
            else { return nil }
            return .alert(payload: data, title: words["title"] as? String ?? "", body: words["body"] as? String ?? "")
        case "background":
            return .background(data)
        default:
            return nil
        }
    }
}
