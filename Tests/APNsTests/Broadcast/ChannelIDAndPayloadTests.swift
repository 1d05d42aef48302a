@testable import APNs
import FleetCore
import Testing

@Suite struct ChannelIDAndPayloadTests {
    @Test("A channel id is non-empty base64, kept verbatim, and logged only by its first 8 characters")
    func channelID() throws {
        let id = try BroadcastChannelID("ab+/Cd09xyZ=")
        #expect(id.rawValue == "ab+/Cd09xyZ=")
        #expect(id.description == "ab+/Cd09…")
        for bad in ["", "has space", "abc=def", "abc===", "é", String(repeating: "A", count: 1025)] {
            #expect(throws: PushRequestError.self) { try BroadcastChannelID(bad) }
        }
    }

    @Test("A channel start carries input-push-channel and no input-push-token; a token start the reverse")
    func startChannel() throws {
        let channelStart = try PushPayload(encoding: LiveActivityPayload.start(
            state: Fixture.state, timestamp: 1, staleDate: 900, inputPushChannel: Fixture.channel))
        let json = try JSONValue(parsing: channelStart.bytes)
        #expect(json["aps"]?["input-push-channel"] == .string(Fixture.channel.rawValue))
        #expect(json["aps"]?["input-push-token"] == nil)
        #expect(json["aps"]?["stale-date"] == .number(900))
        let tokenStart = try JSONValue(parsing: PushPayload(encoding: LiveActivityPayload.start(state: Fixture.state, timestamp: 1)).bytes)
        #expect(tokenStart["aps"]?["input-push-token"] == .number(1))
        #expect(tokenStart["aps"]?["input-push-channel"] == nil)
    }

    @Test("A stale date given to start or update is written as aps.stale-date in Unix seconds")
    func staleDate() throws {
        for payload in [
            LiveActivityPayload.start(state: Fixture.state, timestamp: 100, staleDate: 1_764_403_600.7),
            .update(state: Fixture.state, timestamp: 100, staleDate: 1_764_403_600.7),
        ] {
            let json = try JSONValue(parsing: PushPayload(encoding: payload).bytes)
            #expect(json["aps"]?["stale-date"] == .number(1_764_403_600))
        }
    }

    @Test("Every broadcast and channel reason of reference 5.6 is known, round-trips, and has its remedy")
    func reasons() {
        let table: [(String, PushRemedy, PushOutcome)] = [
            ("FeatureNotEnabled", .fixConfiguration, .configurationError),
            ("MissingChannelId", .fixRequest, .configurationError),
            ("BadChannelId", .fixRequest, .configurationError),
            ("ChannelNotRegistered", .dropChannel, .tokenDead),
            ("BadRequestParams", .fixRequest, .configurationError),
            ("BadRequestPayload", .fixRequest, .configurationError),
            ("PayloadEmpty", .fixRequest, .configurationError),
            ("BadMessageId", .fixRequest, .configurationError),
            ("MissingPushType", .fixRequest, .configurationError),
            ("InvalidPushType", .fixRequest, .configurationError),
            ("CannotCreateChannelConfig", .useTokenMode, .configurationError),
            ("BadExpirationDate", .fixRequest, .configurationError),
            ("TopicDisallowed", .fixConfiguration, .configurationError),
            ("BadPriority", .fixRequest, .configurationError),
            ("TopicMismatch", .fixConfiguration, .configurationError),
            ("TooManyRequests", .backOff, .retryLater),
            ("Shutdown", .reconnect, .retryLater),
        ]
        for (raw, remedy, outcome) in table {
            let reason = APNsReason(rawValue: raw)
            #expect(reason.isKnown, "\(raw)")
            #expect(reason.rawValue == raw)
            #expect(reason.remedy == remedy, "\(raw)")
            #expect(reason.remedy.outcome == outcome, "\(raw)")
            #expect(!reason.explanation.isEmpty)
        }
        #expect(Set(APNsReason.known.map(\.rawValue)).count == APNsReason.known.count)
    }
}
