import FleetCore
import Foundation

/// One value of a decision-log field.
public enum LogValue: Hashable, Sendable, Codable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case strings([String])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String].self) {
            self = .strings(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}

/// The events of the decision log (contract section 7).
public enum DecisionEvent: String, Hashable, Sendable, Codable, CaseIterable {
    case decide, send
    case noTokens = "no-tokens"
    case noneAccepted = "none-accepted"
    case partial
    case clientEnded = "client-ended"
    case adopted
    case startVetoed = "start-vetoed"
    case tokenPruned = "token-pruned"
    /// A due start waits a short grace because the app is in the foreground and about to register its own card.
    case startHeld = "start-held"
    /// A broadcast channel was made for a device (`channel`: first 8 characters, `env`, `ms`).
    case channelCreated = "channel-created"
    /// A channel nobody needs any more was deleted.
    case channelDeleted = "channel-deleted"
    /// A channel request failed (`operation`, `status`, `reason`); `fallback: "token"` when the device
    /// falls back to token mode because of it.
    case channelFailed = "channel-failed"
    /// One publish to a channel (`action`, `channel`: first 8 characters, `env`, `status`, `reason`?, `ms`):
    /// the channel-mode `send`.
    case broadcast
    /// A card near iOS's 8-hour limit was replaced by a new one, and the old one ended.
    case renewed
    /// The server forgot a card iOS has ended at its 8-hour limit (no renewal could replace it).
    case cardExpired = "card-expired"
    /// A question alert (or its withdrawal) sent to one device's `apnsToken` (contract 8.2).
    case alert
    case questionAnswered = "question-answered"
    case questionCancelled = "question-cancelled"
    case questionExpired = "question-expired"
}

/// One line of `$LFG_HOME/liveactivity.log`: `{"ts", "event", "deviceId", ...fields}`.
///
/// Successes are logged too: a dead token answers 200, so the failure mode produces no errors, and
/// only a record of what was sent lets anyone tell a stale card's cause after the fact.
public struct DecisionLogLine: Hashable, Sendable {
    public var ts: UnixTime
    public var event: DecisionEvent
    public var deviceId: DeviceID
    public var fields: [String: LogValue]

    public init(ts: UnixTime, event: DecisionEvent, deviceId: DeviceID, fields: [String: LogValue] = [:]) {
        self.ts = ts
        self.event = event
        self.deviceId = deviceId
        self.fields = fields
    }

    /// The line as one JSON object, keys sorted, no trailing newline.
    public func jsonData() -> Data {
        var object: [String: LogValue] = fields
        object["ts"] = .number(ts)
        object["event"] = .string(event.rawValue)
        object["deviceId"] = .string(deviceId.rawValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)) ?? Data("{}".utf8)
    }

    public var jsonText: String { String(decoding: jsonData(), as: UTF8.self) }
}
