import APNs
import FleetCore
import Foundation
import Testing

/// Issue 12.8: three 2,000-character titles made a 6,245-byte state, refused locally tick after tick.
/// Titles are shortened in FleetCore (the reducer both writers run), so every push fits its limit.
@Suite struct PayloadSizeTests {
    /// Titles that cost the most bytes per character once JSON-encoded: escapes, control characters,
    /// 4-byte scalars, a long emoji cluster, and plain text.
    static let worstTitles: [String] = [
        String(repeating: "\"\\", count: 2_000),
        String(repeating: "\u{1}", count: 4_000),
        String(repeating: "𝄞", count: 3_000),
        String(repeating: "👩‍👩‍👧‍👦", count: 600),
        String(repeating: "x", count: 6_000),
        String(repeating: "é/", count: 2_000),
    ]

    /// The worst content state: max rows, every title worst-case, the longest sids, large numbers.
    static func worstState(title: String) throws -> ContentState {
        let sessions = try (0..<(FleetReducer.maxRows + 5)).map { index in
            // Through the API's own decoding, as a hook's report arrives.
            // Each asks a question with the longest id and the same worst words, so the card carries one too.
            let prompt: [String: Any] = [
                "id": String(repeating: "\"", count: Question.maximumIDBytes), "kind": "permission", "text": title,
            ]
            let body = try JSONSerialization.data(withJSONObject: ["title": title, "busy": true, "prompt": prompt])
            let report = try JSONDecoder().decode(SessionReport.self, from: body)
            // The longest sid the id rule allows, in the character that costs most to encode (a quote: 2 bytes).
            let sid = String(repeating: "\"", count: IdentifierRule.maxBytes - 1) + "\(index)"
            #expect(IdentifierRule.problem(sid) == nil)
            return FleetSession(sid: SessionID(sid), report: report)
        }
        var state = FleetReducer.reduce(sessions, now: 1_999_999_999.999_999).contentState
        state.working = 99_999
        state.needsInput = 99_999
        state.more = 99_999
        return state
    }

    @Test("Every push of the worst card fits: 4 KB to a device (start, update, end), 5 KB as a broadcast",
        arguments: worstTitles.indices)
    func worstCaseFits(index: Int) throws {
        let state = try Self.worstState(title: Self.worstTitles[index])
        #expect(state.rows.count == FleetReducer.maxRowsBesideQuestion)
        #expect(state.question != nil)
        let channel = try BroadcastChannelID(String(repeating: "A", count: BroadcastChannelID.maximumLength))
        let payloads: [LiveActivityPayload] = [
            .start(state: state, timestamp: 1_999_999_999, staleDate: 1_999_999_999, inputPushChannel: channel),
            .start(state: state, timestamp: 1_999_999_999, staleDate: 1_999_999_999),
            .update(state: state, timestamp: 1_999_999_999, staleDate: 1_999_999_999, alert: .summary(of: state)),
            .end(state: state, timestamp: 1_999_999_999, dismissalDate: 1_999_999_999),
        ]
        for payload in payloads {
            let request = try PushRequest.liveActivity(
                payload, token: Fixture.token, environment: .sandbox, bundleID: Fixture.bundle)
            #expect(request.payload.bytes.count <= PushPayload.maximumBytes)
        }
        for payload in payloads.dropFirst(2) {
            let request = try PushRequest.broadcast(
                payload, channel: channel, environment: .sandbox, bundleID: Fixture.bundle, priority: .immediate,
                expiration: .immediately)
            #expect(request.payload.bytes.count <= PushPayload.broadcastMaximumBytes)
        }
    }

    @Test("A shortened title keeps whole characters, ends in an ellipsis, and is the same every time")
    func shorteningIsDeterministic() throws {
        let state = try Self.worstState(title: Self.worstTitles[3])
        let title = try #require(state.rows.first?.title)
        #expect(title.hasSuffix("…"))
        #expect(title.dropLast().allSatisfy { $0 == "👩‍👩‍👧‍👦" })
        #expect(try Self.worstState(title: Self.worstTitles[3]) == state)
    }
}
