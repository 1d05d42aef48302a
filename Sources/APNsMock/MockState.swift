import APNs
import FleetCore
import Foundation
import Synchronization

/// What the stand-in does with one request after deciding.
enum MockAction: Equatable {
    /// Answer normally.
    case respond
    /// Answer, then send GOAWAY on this connection and refuse later streams.
    case respondThenGoAway
    /// Close the connection without answering.
    case dropConnection
    /// Neither answer nor read again on this connection, and keep it open.
    case goSilent
}

extension MockAction {
    /// Whether the request gets an answer.
    var answers: Bool { self == .respond || self == .respondThenGoAway }
}

/// The stand-in's programmable state: per-token behaviours, pending faults and the record of every
/// request. Thread-safe: the server's loop and any caller share it through one lock.
public final class MockState: Sendable {
    struct Inner {
        var behaviours: [String: MockBehaviour] = [:]
        var fallbackAfterFailing: [String: MockBehaviour] = [:]
        var defaultBehaviour: MockBehaviour = .live
        var faults: [MockFault] = []
        var requestsUntilGoAway: Int?
        var requestsUntilDrop: Int?
        var requestsUntilSilent: Int?
        var expiringProviderTokens = false
        var expiredProviderTokens: Set<String> = []
        var records: [MockRecord] = []
        var received = 0
        var verified: [String: ProviderTokenClaims] = [:]
        var channels = MockChannels()
        var leakCheck: LeakCheck?
        var leaks: [MockLeak] = []
        var leakChecked = 0
    }

    /// The most records kept; older ones are dropped in batches of a tenth.
    static let recordLimit = 50_000
    private let inner = Mutex(Inner())
    private let apnsIDs = APNsIDMaker()
    let verifier: (@Sendable (String) -> ProviderTokenClaims?)?
    let bundleID: BundleID?
    let clock: WallClock
    /// Called with each new record (for printing), outside the lock.
    let onRecord: (@Sendable (MockRecord) -> Void)?

    init(verifier: (@Sendable (String) -> ProviderTokenClaims?)?, bundleID: BundleID?, clock: WallClock,
         onRecord: (@Sendable (MockRecord) -> Void)?) {
        self.verifier = verifier
        self.bundleID = bundleID
        self.clock = clock
        self.onRecord = onRecord
    }

    /// Sets how pushes to `token` are answered (lowercase hex).
    public func program(_ token: String, _ behaviour: MockBehaviour) {
        inner.withLock { state in
            let key = token.lowercased()
            if case .failing = behaviour { state.fallbackAfterFailing[key] = state.behaviours[key] ?? state.defaultBehaviour }
            state.behaviours[key] = behaviour
        }
    }

    /// Sets how pushes to tokens nobody programmed are answered (`live` unless changed).
    public func programDefault(_ behaviour: MockBehaviour) { inner.withLock { $0.defaultBehaviour = behaviour } }

    /// Arms a one-shot connection fault.
    public func inject(_ fault: MockFault) {
        inner.withLock { state in
            switch fault {
            case .goAwayAfter(let requests): state.requestsUntilGoAway = max(1, requests)
            case .dropConnectionAt(let request): state.requestsUntilDrop = max(1, request)
            case .goSilentAt(let request): state.requestsUntilSilent = max(1, request)
            case .expireProviderTokens: state.expiringProviderTokens = true
            }
        }
    }

    /// Makes the next `count` calls of `call` answer `status` with `reason` (e.g. the next 3 creates answer 500).
    public func failChannelCalls(_ call: MockChannelCall, status: Int, reason: APNsReason, count: Int = 1) {
        inner.withLock { $0.channels.fail(call, status: status, reason: reason, count: count) }
    }

    /// APNs' channel limit per app and environment (reference 5.3).
    public static let defaultChannelLimit = MockChannels.defaultLimit

    /// How many live channels the stand-in allows before answering `CannotCreateChannelConfig`
    /// (APNs: 10,000 per app and environment, reference 5.3).
    public var channelLimit: Int {
        get { inner.withLock { $0.channels.limit } }
        set { inner.withLock { $0.channels.limit = max(0, newValue) } }
    }

    /// The live channels, in creation order.
    public var channels: [MockChannel] { inner.withLock { $0.channels.channels } }

    /// The broadcasts published to `channel` (its whole id), in arrival order, refused ones included.
    public func broadcasts(to channel: String) -> [MockRecord] {
        inner.withLock { $0.records.filter { $0.kind == .broadcast && $0.channel == channel } }
    }

    /// Forgets behaviours, faults, channels, records and leaks (the channel limit and the leak check are kept).
    public func reset() {
        inner.withLock { state in
            let limit = state.channels.limit
            let leakCheck = state.leakCheck
            state = Inner()
            state.channels.limit = limit
            state.leakCheck = leakCheck
        }
    }

    /// Turns the privacy leak check on (or off with nil): from now on every device push and broadcast carrying
    /// one of its words is recorded in ``leaks``.
    public func checkLeaks(_ check: LeakCheck?) { inner.withLock { $0.leakCheck = check } }

    /// The pushes that carried fixture words since the check was turned on, in arrival order.
    public var leaks: [MockLeak] { inner.withLock { $0.leaks } }

    /// Whether the leak check is on.
    public var isCheckingLeaks: Bool { inner.withLock { $0.leakCheck != nil } }

    /// How many pushes the leak check searched.
    public var leakChecked: Int { inner.withLock { $0.leakChecked } }

    /// Every request so far (the newest 50,000), in arrival order.
    public var records: [MockRecord] { inner.withLock { $0.records } }

    /// The requests to `token` (hex, any case).
    public func records(for token: String) -> [MockRecord] {
        let key = token.lowercased()
        return inner.withLock { $0.records.filter { $0.token == key } }
    }

    /// Decides one request: records it and returns the record (which holds the answer) and what to do.
    func handle(_ request: MockRequest, connection: Int) -> (MockRecord, MockAction) {
        let now = clock.now
        let (record, action) = inner.withLock { state -> (MockRecord, MockAction) in
            var action = MockAction.respond
            if let remaining = state.requestsUntilDrop {
                state.requestsUntilDrop = remaining > 1 ? remaining - 1 : nil
                if remaining == 1 { action = .dropConnection }
            }
            if action == .respond, let remaining = state.requestsUntilSilent {
                state.requestsUntilSilent = remaining > 1 ? remaining - 1 : nil
                if remaining == 1 { action = .goSilent }
            }
            if action == .respond, let remaining = state.requestsUntilGoAway {
                state.requestsUntilGoAway = remaining > 1 ? remaining - 1 : nil
                if remaining == 1 { action = .respondThenGoAway }
            }
            let bearer = request.authorization.map { String($0.dropFirst(7)) } ?? ""
            if state.expiringProviderTokens, !bearer.isEmpty {
                state.expiringProviderTokens = false
                state.expiredProviderTokens.insert(bearer)
            }
            let kind = MockRecord.Kind(path: request.path)
            var answer: MockAnswer
            var delivered = false
            if kind == .device {
                (answer, delivered) = decideDevicePush(request, now: now, bearer: bearer, state: &state)
            } else if let refusal = MockRules.authorizationRejection(
                of: request, now: now, verify: { verify($0, cache: &state.verified) })
            {
                answer = .refused(refusal.status, refusal.reason)
            } else if state.expiredProviderTokens.contains(bearer) {
                answer = .refused(403, .expiredProviderToken)
            } else {
                answer = state.channels.handle(request, bundleID: bundleID, now: now) ?? .refused(404, .badPath)
                delivered = kind == .broadcast && answer.status == 200
            }
            let sequence = state.received + 1
            let requestID = request.headers["apns-request-id"] ?? apnsIDs.next(sequence)
            if kind == .device {
                answer.headers["apns-id"] = request.headers["apns-id"] ?? apnsIDs.next(sequence)
            } else {
                // Reference 5.3/5.5: every channel and broadcast answer carries `apns-request-id`; a broadcast
                // success also `apns-unique-id`.
                answer.headers["apns-request-id"] = requestID
                if kind == .broadcast, answer.status == 200 { answer.headers["apns-unique-id"] = apnsIDs.next(sequence) }
            }
            if let reason = answer.reason {
                var object: [String: Any] = ["reason": reason.rawValue]
                if answer.status == 410 { object["timestamp"] = Int64(now * 1000) }
                answer.body = Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
            }
            let token = kind == .device ? (request.token ?? "").lowercased() : ""
            let record = MockRecord(
                sequence: sequence, connection: connection, receivedAt: now, method: request.method,
                path: kind == .device && request.token != nil ? "/3/device/" + token : request.path, token: token,
                headers: request.headers, body: request.body,
                providerToken: bearer.isEmpty ? nil : verify(bearer, cache: &state.verified),
                status: action.answers ? answer.status : 0,
                reason: action.answers ? answer.reason : nil,
                apnsID: answer.headers["apns-id"] ?? requestID,
                isDelivered: action.answers && delivered,
                kind: kind, channel: answer.channel ?? request.headers["apns-channel-id"],
                responseHeaders: answer.headers, responseBody: answer.body)
            state.received += 1
            if let check = state.leakCheck, kind != .channelManagement {
                state.leakChecked += 1
                if let leak = check.leak(in: record) { state.leaks.append(leak) }
            }
            // A long demo run keeps the newest records only, so memory stays bounded.
            if state.records.count >= Self.recordLimit { state.records.removeFirst(Self.recordLimit / 10) }
            state.records.append(record)
            return (record, action)
        }
        onRecord?(record)
        return (record, action)
    }

    /// A device push: APNs' checks, then the token's programmed behaviour.
    private func decideDevicePush(_ request: MockRequest, now: UnixTime, bearer: String, state: inout Inner)
        -> (MockAnswer, delivered: Bool)
    {
        var verdict = MockRules.rejection(of: request, now: now, bundleID: bundleID) { jwt in
            verify(jwt, cache: &state.verified)
        }
        if verdict == nil, state.expiredProviderTokens.contains(bearer) { verdict = (403, .expiredProviderToken) }
        let token = (request.token ?? "").lowercased()
        var delivered = false
        if verdict == nil {
            switch state.behaviours[token] ?? state.defaultBehaviour {
            case .live: delivered = true
            case .deadButAccepted: break
            case .unregistered: verdict = (410, .unregistered)
            case .badDeviceToken: verdict = (400, .badDeviceToken)
            case .failing(let status, let reason, let count):
                verdict = (status, reason)
                state.behaviours[token] = count > 1
                    ? .failing(status: status, reason: reason, count: count - 1)
                    : state.fallbackAfterFailing.removeValue(forKey: token) ?? state.defaultBehaviour
            }
        }
        return (verdict.map { .refused($0.status, $0.reason) } ?? MockAnswer(status: 200), delivered)
    }

    /// Verifies a JWT once per distinct token: signature checks cost ~100 µs, and a provider reuses one token.
    private func verify(_ jwt: String, cache: inout [String: ProviderTokenClaims]) -> ProviderTokenClaims? {
        if let claims = cache[jwt] { return claims }
        let claims: ProviderTokenClaims?
        if let verifier {
            claims = verifier(jwt)
        } else {
            claims = ParsedProviderToken(jwt).flatMap { $0.algorithm == "ES256" ? $0.claims : nil }
        }
        if let claims {
            if cache.count > 64 { cache.removeAll() }
            cache[jwt] = claims
        }
        return claims
    }
}

/// Makes the `apns-id`s the stand-in answers with: a random UUID per run with the request number in
/// its last 12 hex digits. (`UUID()` reads /dev/urandom on every call: a third of the stand-in's time.)
struct APNsIDMaker: Sendable {
    let prefix = String(UUID().uuidString.lowercased().prefix(24))

    func next(_ number: Int) -> String {
        let hex = String(UInt64(number) & 0xFFFF_FFFF_FFFF, radix: 16)
        return prefix + String(repeating: "0", count: 12 - hex.count) + hex
    }
}
