@testable import APNs
import Testing

@Suite struct PushResponseTests {
    static let table: [(Int, String, PushOutcome)] = [
        (410, "Unregistered", .tokenDead),
        (410, "ExpiredToken", .tokenDead),
        (400, "BadDeviceToken", .tokenDead),
        (400, "DeviceTokenNotForTopic", .configurationError),
        (400, "BadTopic", .configurationError),
        (400, "TopicDisallowed", .configurationError),
        (403, "InvalidProviderToken", .configurationError),
        (403, "ExpiredProviderToken", .retryLater),
        (429, "TooManyRequests", .retryLater),
        (429, "TooManyProviderTokenUpdates", .retryLater),
        (500, "InternalServerError", .retryLater),
        (503, "ServiceUnavailable", .retryLater),
        (503, "Shutdown", .retryLater),
        (400, "IdleTimeout", .retryLater),
        (413, "PayloadTooLarge", .configurationError),
        (410, "SomethingNew", .tokenDead),
        (503, "SomethingNew", .retryLater),
        (400, "SomethingNew", .configurationError),
    ]

    @Test("Each status and reason maps to the outcome a watcher acts on", arguments: table)
    func classification(status: Int, reason: String, outcome: PushOutcome) {
        let response = PushResponse(
            status: status, apnsID: "id", body: Array(#"{"reason":"\#(reason)"}"#.utf8), latencyMilliseconds: 1)
        #expect(response.reason == APNsReason(rawValue: reason))
        #expect(response.outcome == outcome)
    }

    @Test("A 200 is accepted and keeps its apns-id")
    func accepted() {
        let response = PushResponse(status: 200, apnsID: "abc", body: [], latencyMilliseconds: 2.5)
        #expect(response.outcome == .accepted)
        #expect(response.remedy == nil)
        #expect(response.apnsID == "abc")
        #expect(response.latencyMilliseconds == 2.5)
    }

    @Test("A 410 carries the time APNs confirmed the token dead, in Unix seconds")
    func unregisteredTimestamp() {
        let response = PushResponse(
            status: 410, apnsID: nil, body: Array(#"{"reason":"Unregistered","timestamp":1764400000123}"#.utf8),
            latencyMilliseconds: 1)
        #expect(response.invalidSince == 1_764_400_000.123)
        #expect(response.remedy == .dropToken)
    }

    @Test("A transport failure is a retry-later response, never a throw")
    func transport() {
        let response = PushResponse.transportFailed(TransportFailure(.connectionLost, "reset"))
        #expect(response.status == 0)
        #expect(response.outcome == .retryLater)
        #expect(response.remedy == .reconnect)
    }

    @Test("Every documented reason parses to its own case and back to the same string")
    func reasonsRoundTrip() {
        #expect(APNsReason.known.count == 33 + 9, "reference 1.8 plus the 9 broadcast-only reasons of 5.6")
        #expect(Set(APNsReason.known.map(\.rawValue)).count == APNsReason.known.count)
        for reason in APNsReason.known {
            #expect(APNsReason(rawValue: reason.rawValue) == reason)
            #expect(!reason.explanation.isEmpty)
        }
        #expect(APNsReason(rawValue: "Mystery") == .unknown("Mystery"))
    }
}
