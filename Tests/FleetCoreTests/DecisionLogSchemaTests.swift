import FleetCore
import FleetCoreTesting
import Foundation
import Testing

@Suite struct DecisionLogSchemaTests {
    @Test("Every event's typed constructor writes exactly its schema, and the text reads back to the same line")
    func constructorsFollowTheSchema() throws {
        for line in DecisionLogSamples.all {
            #expect(line.schemaViolations == [], "\(line.event.rawValue)")
            let decoded = try JSONDecoder().decode(DecisionLogLine.self, from: Data(line.jsonText.utf8))
            #expect(decoded == line, "\(line.event.rawValue) round trip")
            #expect(decoded.schemaViolations == [])
        }
    }

    @Test("The text is one flat JSON object, keys sorted, with ts, event and deviceId")
    func textShape() throws {
        let line = DecisionLogSamples.line(.decide, at: 1_764_400_000.125)
        #expect(line.jsonText == #"{"action":"update","channel":"dHJ1ZS1j","deviceId":"phone","event":"decide","needsInput":1,"priority":5,"purpose":"renewal","rows":["s1:needsInput","s2:working"],"tokens":2,"ts":1764400000.125,"working":1}"#)
        let escaped = DecisionLogLine.startVetoed(at: 2, deviceId: "ph\"one\n", veto: ["q\\1", "s\u{1}"], active: 1)
        let object = try JSONSerialization.jsonObject(with: Data(escaped.jsonText.utf8)) as? [String: Any]
        #expect(object?["deviceId"] as? String == "ph\"one\n")
        #expect(object?["veto"] as? [String] == ["q\\1", "s\u{1}"])
    }

    @Test("A whole token or channel id never reaches the text: only its first 8 characters")
    func neverWholeTokens() {
        for line in DecisionLogSamples.all {
            #expect(!line.jsonText.contains(String(DecisionLogSamples.wholeToken.prefix(9))), "\(line.event.rawValue)")
            #expect(!line.jsonText.contains(String(DecisionLogSamples.wholeChannel.prefix(9))), "\(line.event.rawValue)")
        }
        #expect(DecisionLogSamples.line(.send, at: 0).string(.token) == "01234567")
        #expect(DecisionLogSamples.line(.broadcast, at: 0).string(.channel) == "dHJ1ZS1j")
    }

    @Test("Event and field names are unique, and every field but the line's own three belongs to some event")
    func namesAreUnique() {
        #expect(Set(DecisionEvent.allCases.map(\.rawValue)).count == DecisionEvent.allCases.count)
        #expect(Set(LogField.allCases.map(\.rawValue)).count == LogField.allCases.count)
        let used = Set(DecisionEvent.allCases.flatMap { $0.fields.map(\.field) })
        #expect(Set(LogField.allCases).subtracting(used) == [.ts, .event, .deviceId])
    }

    @Test("The contract's events are all in the schema (sections 7, 8.1, 8.2)")
    func contractEvents() {
        let contract = [
            "decide", "send", "no-tokens", "none-accepted", "partial", "client-ended", "adopted", "start-vetoed",
            "token-pruned", "start-held", "channel-created", "channel-deleted", "channel-failed", "broadcast", "renewed",
            "alert", "question-answered", "question-cancelled", "question-expired",
        ]
        #expect(contract.allSatisfy { DecisionEvent(rawValue: $0) != nil })
    }

    @Test("A line read back with a field of the wrong type or a missing one names the problem")
    func violationsAreNamed() throws {
        let text = #"{"ts":1,"event":"send","deviceId":"p","action":"update","token":"abcd1234","env":"sandbox","status":"200"}"#
        let line = try JSONDecoder().decode(DecisionLogLine.self, from: Data(text.utf8))
        #expect(line.schemaViolations == ["send: missing ms", "send: status is string, not integer"])
        let unknown = #"{"ts":1,"event":"send","deviceId":"p","surprise":1}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DecisionLogLine.self, from: Data(unknown.utf8)) }
    }
}
