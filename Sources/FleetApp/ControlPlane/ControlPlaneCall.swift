import FleetCore
import Foundation
import HTTPTypes

/// `PUT /api/devices/{deviceId}`: what the app tells the server about this install.
public struct DeviceRegistration: Hashable, Sendable, Codable {
    public var env: PushEnvironment
    public var platform: String
    public var pushToStartToken: PushToken?
    /// The list's hidden folders, so the server's card never counts what the list hides.
    public var hiddenDirs: HiddenDirs
    /// Whether the app is in the foreground, for the default server only: while it is, the server holds
    /// a due push-start briefly so the card the app makes itself is adopted instead of twinned.
    public var appState: AppState?
    /// iOS 18+ and the app requests channel cards (contract 8.1): the server makes the device a channel.
    public var liveActivityChannels: Bool?
    /// Privacy mode (contract 8.3); nil: the server's default (`LFG_PRIVACY`).
    public var privacy: Bool?
    /// base64 of the app's P-256 sealing key's 65-byte point; alerts are sealed to it. Sent on every `PUT`
    /// (the `PUT` is the whole profile: one without it leaves the device with no key).
    public var sealKey: String?
    /// The token question alerts and their withdrawals go to (`registerForRemoteNotifications`). Sent in
    /// every PUT once known: the server replaces the whole device, so a PUT without it would forget it.
    public var apnsToken: PushToken?
    /// The token WidgetKit reloads go to.
    public var widgetPushToken: PushToken?

    public init(env: PushEnvironment, platform: String = "ios", pushToStartToken: PushToken? = nil,
                hiddenDirs: HiddenDirs = [], appState: AppState? = nil, liveActivityChannels: Bool? = nil,
                apnsToken: PushToken? = nil, widgetPushToken: PushToken? = nil) {
        self.apnsToken = apnsToken
        self.widgetPushToken = widgetPushToken
        self.liveActivityChannels = liveActivityChannels
        self.env = env
        self.platform = platform
        self.pushToStartToken = pushToStartToken
        self.hiddenDirs = hiddenDirs
        self.appState = appState
    }

    /// The app's place on screen, as the `appState` field says it.
    public enum AppState: String, Hashable, Sendable, Codable {
        case foreground, background
    }
}

/// One call the app makes to a control plane (contract section 5). Every Live Activity call carries the
/// device id, so two phones on one APNs environment never share an update-token slot.
public enum ControlPlaneCall: Hashable, Sendable {
    /// `PUT /api/devices/{deviceId}`.
    case putDevice(DeviceID, DeviceRegistration)
    /// `POST /api/push/live-activity/start-token` or `/update-token`, by the registration's kind.
    case registerToken(TokenRegistration, env: PushEnvironment, deviceID: DeviceID)
    /// `POST /api/push/live-activity/ended`: the app ended its card itself.
    case reportEnded(env: PushEnvironment, deviceID: DeviceID)
    /// `GET /api/sessions`.
    case fetchSessions
    /// `GET /api/devices/{deviceId}`: the device's mode and the channel its cards follow (contract 8.1).
    case fetchDevice(DeviceID)
    /// `POST /api/push/live-activity/channel-card`: the app made its own card on the device's channel.
    case reportChannelCard(channelId: String, deviceID: DeviceID)
    /// `POST /api/questions/{id}/answer` (contract 8.2): first answer wins; a 409 carries the question.
    case answerQuestion(QuestionID, answer: String, deviceID: DeviceID)

    /// The HTTP method.
    public var method: String {
        switch self {
        case .putDevice: "PUT"
        case .registerToken, .reportEnded, .reportChannelCard, .answerQuestion: "POST"
        case .fetchSessions, .fetchDevice: "GET"
        }
    }

    /// The path's segments, not encoded (the device id is one segment).
    public var pathSegments: [String] {
        switch self {
        case .putDevice(let deviceID, _): ["api", "devices", deviceID.rawValue]
        case .registerToken(let registration, _, _):
            ["api", "push", "live-activity", registration.kind == .pushToStart ? "start-token" : "update-token"]
        case .reportEnded: ["api", "push", "live-activity", "ended"]
        case .fetchSessions: ["api", "sessions"]
        case .fetchDevice(let deviceID): ["api", "devices", deviceID.rawValue]
        case .reportChannelCard: ["api", "push", "live-activity", "channel-card"]
        case .answerQuestion(let id, _, _): ["api", "questions", id.rawValue, "answer"]
        }
    }

    /// The request path as it goes into a URL (each segment percent-encoded).
    public var path: String { "/" + pathSegments.map(Self.pathSegment).joined(separator: "/") }

    /// The JSON body as key/value pairs of strings and string arrays, or nil for a GET.
    public var body: [String: JSONValue]? {
        switch self {
        case .putDevice(_, let registration):
            var body: [String: JSONValue] = [
                "env": .string(registration.env.rawValue), "platform": .string(registration.platform),
                "hiddenDirs": .strings(registration.hiddenDirs.paths),
            ]
            if let token = registration.pushToStartToken { body["pushToStartToken"] = .string(token.hex) }
            if let appState = registration.appState { body["appState"] = .string(appState.rawValue) }
            if let channels = registration.liveActivityChannels { body["liveActivityChannels"] = .bool(channels) }
            if let token = registration.apnsToken { body["apnsToken"] = .string(token.hex) }
            if let token = registration.widgetPushToken { body["widgetPushToken"] = .string(token.hex) }
            if let privacy = registration.privacy { body["privacy"] = .bool(privacy) }
            if let sealKey = registration.sealKey { body["sealKey"] = .string(sealKey) }
            return body
        case .registerToken(let registration, let env, let deviceID):
            return ["token": .string(registration.token.hex), "env": .string(env.rawValue),
                    "deviceId": .string(deviceID.rawValue)]
        case .reportEnded(let env, let deviceID):
            return ["env": .string(env.rawValue), "deviceId": .string(deviceID.rawValue)]
        case .reportChannelCard(let channelId, let deviceID):
            return ["channelId": .string(channelId), "deviceId": .string(deviceID.rawValue)]
        case .answerQuestion(_, let answer, let deviceID):
            return ["answer": .string(answer), "deviceId": .string(deviceID.rawValue)]
        case .fetchSessions, .fetchDevice:
            return nil
        }
    }

    /// A string, an array of strings or a flag: all a call body holds.
    public enum JSONValue: Hashable, Sendable, Encodable {
        case string(String)
        case strings([String])
        case bool(Bool)

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .strings(let texts): try container.encode(texts)
            case .bool(let flag): try container.encode(flag)
            }
        }
    }

    /// The body as JSON bytes (keys sorted), or nil for a GET.
    public func encodedBody() throws -> Data? {
        guard let body else { return nil }
        return try WireJSON.encode(body)
    }

    /// The kind of call, one word per endpoint (the simulator keys its tunnel's chances by it).
    public var kind: String {
        switch self {
        case .putDevice: "put-device"
        case .registerToken(let registration, _, _): "register-" + registration.kind.rawValue
        case .reportEnded: "report-ended"
        case .fetchSessions: "fetch-sessions"
        case .fetchDevice: "fetch-device"
        case .reportChannelCard: "report-channel-card"
        case .answerQuestion: "answer-question"
        }
    }

    /// What a short trace line names this call by (never a whole token).
    public var summary: String {
        switch self {
        case .putDevice(let deviceID, _): "PUT device \(deviceID)"
        case .registerToken(let registration, let env, _):
            "register \(registration.kind.rawValue) token \(registration.token) (\(env.rawValue))"
        case .reportEnded: "report ended"
        case .fetchSessions: "fetch sessions"
        case .fetchDevice(let deviceID): "GET device \(deviceID)"
        case .reportChannelCard(let channelId, _): "report channel card \(channelId.prefix(8))…"
        case .answerQuestion(let id, _, _): "answer question \(id)"
        }
    }

    static func pathSegment(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
        var out = ""
        for byte in text.utf8 {
            if allowed.contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
