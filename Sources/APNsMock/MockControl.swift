import APNs
import Foundation

/// The stand-in's control surface over its own HTTP/2 port, for code outside the process
/// (`curl --http2-prior-knowledge`):
///
/// - `GET /mock/records` -> every record as printable JSON (token prefixes only)
/// - `POST /mock/tokens/<hex>` `{"behaviour": "live|dead-but-200|unregistered|bad-device-token|fail", "status"?, "reason"?, "count"?}`
/// - `POST /mock/default` with the same body: the behaviour of unprogrammed tokens
/// - `POST /mock/faults` `{"fault": "goaway|drop|silent|expire-provider-tokens", "after"?: N}`
/// - `POST /mock/reset`
/// - `GET /mock/channels` -> `{"count": N, "limit": N, "channels": [{"channel": <first 8>, "policy": 0|1, "createdAt"}]}`
/// - `POST /mock/channels/faults` `{"call": "create|read|delete|list|broadcast", "status"?: 500, "reason"?, "count"?: 1}`
/// - `POST /mock/channels/limit` `{"limit": N}`
/// - `GET /mock/leaks` -> `{"checking": bool, "checked": N, "leaks": [{"seq", "kind", "target": <first 8>, "words": N}]}`
/// - `POST /mock/leaks` `{"words": [...]}` turns the privacy leak check on (an empty list turns it off)
enum MockControl {
    static let prefix = "/mock/"

    static func handle(_ request: MockRequest, state: MockState) -> (Int, [UInt8]) {
        let route = String(request.path.dropFirst(prefix.count))
        let body = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:]
        switch (request.method, route) {
        case ("GET", "records"):
            let records = state.records.map(\.printable)
            return (200, Array((try? JSONSerialization.data(withJSONObject: records, options: [.sortedKeys])) ?? Data()))
        case ("POST", "reset"):
            state.reset()
            return ok
        case ("POST", "default"):
            guard let behaviour = behaviour(from: body) else { return badBehaviour }
            state.programDefault(behaviour)
            return ok
        case ("POST", "faults"):
            let after = (body["after"] as? Int) ?? 1
            switch body["fault"] as? String {
            case "goaway": state.inject(.goAwayAfter(requests: after))
            case "drop": state.inject(.dropConnectionAt(request: after))
            case "silent": state.inject(.goSilentAt(request: after))
            case "expire-provider-tokens": state.inject(.expireProviderTokens)
            default: return error("fault must be goaway, drop, silent or expire-provider-tokens")
            }
            return ok
        case ("GET", "leaks"):
            let leaks = state.leaks.map { leak -> [String: Any] in
                ["seq": leak.sequence, "kind": leak.kind.rawValue, "target": leak.target, "words": leak.words.count]
            }
            let object: [String: Any] = ["checking": state.isCheckingLeaks, "checked": state.leakChecked, "leaks": leaks]
            return (200, Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()))
        case ("POST", "leaks"):
            guard let words = body["words"] as? [String] else { return error("words must be an array of strings") }
            state.checkLeaks(words.isEmpty ? nil : LeakCheck(words: words))
            return ok
        case ("GET", "channels"):
            let channels = state.channels.map { channel -> [String: Any] in
                ["channel": String(channel.id.prefix(8)), "policy": channel.policy.rawValue, "createdAt": channel.createdAt]
            }
            let object: [String: Any] = ["count": channels.count, "limit": state.channelLimit, "channels": channels]
            return (200, Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()))
        case ("POST", "channels/faults"):
            guard let call = (body["call"] as? String).flatMap(MockChannelCall.init(rawValue:)) else {
                return error("call must be create, read, delete, list or broadcast")
            }
            let status = (body["status"] as? Int) ?? 500
            let reason = (body["reason"] as? String).map(APNsReason.init(rawValue:))
                ?? (status == 503 ? .serviceUnavailable : status == 429 ? .tooManyRequests : .internalServerError)
            state.failChannelCalls(call, status: status, reason: reason, count: (body["count"] as? Int) ?? 1)
            return ok
        case ("POST", "channels/limit"):
            guard let limit = body["limit"] as? Int, limit >= 0 else { return error("limit must be a whole number >= 0") }
            state.channelLimit = limit
            return ok
        case ("POST", _) where route.hasPrefix("tokens/"):
            let token = String(route.dropFirst("tokens/".count))
            guard (try? DeviceToken(hex: token)) != nil else { return error("the token must be hex") }
            guard let behaviour = behaviour(from: body) else { return badBehaviour }
            state.program(token, behaviour)
            return ok
        default:
            return (404, Array(#"{"error":"unknown mock route"}"#.utf8))
        }
    }

    static let ok = (200, Array(#"{"ok":true}"#.utf8))
    static let badBehaviour = error("behaviour must be live, dead-but-200, unregistered, bad-device-token or fail")

    static func error(_ message: String) -> (Int, [UInt8]) {
        (400, Array((try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()))
    }

    static func behaviour(from body: [String: Any]) -> MockBehaviour? {
        guard let name = body["behaviour"] as? String else { return nil }
        return MockBehaviour(
            name: name, status: body["status"] as? Int, reason: body["reason"] as? String, count: body["count"] as? Int)
    }
}
