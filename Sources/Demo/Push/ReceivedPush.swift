import APNsMock
import FleetApp
import FleetAppTesting
import FleetCore
import Foundation

/// A Live Activity push as the phone receives it, read back from what the APNs stand-in recorded.
public enum ReceivedPush: Hashable, Sendable {
    /// `event: start` for a push-to-start token.
    case start(ContentState)
    /// `event: update` or `end` for an update token.
    case toCard(LiveActivityPush)

    /// The push a recorded request carries, and the token it went to; nil for anything the phone never
    /// gets (a rejected or dead-token request, or not a Live Activity push).
    public static func reading(_ record: MockRecord) -> (PushToken, ReceivedPush)? {
        guard record.isDelivered, record.pushType == "liveactivity", let token = PushToken(hex: record.token),
            let aps = (record.bodyJSON as? [String: Any])?["aps"] as? [String: Any],
            let event = aps["event"] as? String, let timestamp = (aps["timestamp"] as? NSNumber)?.doubleValue
        else { return nil }
        let content = (aps["content-state"] as? [String: Any]).flatMap(Self.contentState)
        switch event {
        case "start":
            // iOS orders a card's pushes by their `timestamp`, from the start push's own; the simulated
            // iOS takes that baseline from the content's `updatedAt` (finer than the whole-second
            // timestamp), which would drop an update sent within the same second as the start.
            return content.map { content in
                var started = content
                started.updatedAt = min(content.updatedAt, timestamp)
                return (token, .start(started))
            }
        case "update":
            return content.map { (token, .toCard(.update($0, timestamp: timestamp))) }
        case "end":
            let dismissal = (aps["dismissal-date"] as? NSNumber)?.doubleValue
            let policy: DismissalPolicy = dismissal.map { $0 <= timestamp ? .immediate : .after($0) } ?? .default
            return (token, .toCard(.end(content, dismissal: policy, timestamp: timestamp)))
        default:
            return nil
        }
    }

    /// The content state as the widget decodes it (leniently).
    static func contentState(_ object: [String: Any]) -> ContentState? {
        guard let data = try? JSONSerialization.data(withJSONObject: object) else { return nil }
        return try? JSONDecoder().decode(ContentState.self, from: data)
    }
}
