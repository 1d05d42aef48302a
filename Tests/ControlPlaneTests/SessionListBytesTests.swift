import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// `GET /api/sessions` reuses each session's encoded listing while it is unchanged; its body must stay
/// exactly what encoding the whole list writes, whatever changed in between.
@Suite struct SessionListBytesTests {
    struct Body: Encodable { var sessions: [SessionListing] }

    func expected(_ harness: ServiceHarness) async throws -> String {
        String(decoding: try WireJSON.encode(Body(sessions: await harness.service.sessions())), as: UTF8.self)
    }

    @Test("The list is byte for byte the whole list's encoding, after puts, a repeat, time passing and a delete")
    func listMatchesWholeEncoding() async throws {
        let harness = try await ServiceHarness()
        #expect(await harness.call("GET", "/api/sessions").text == #"{"sessions":[]}"#)
        let titles = [#"say "hi" \ there"#, "tab\tand\u{1}control", "été 🎉 /path", "plain"]
        for (index, title) in titles.enumerated() {
            let body = try String(decoding: JSONSerialization.data(withJSONObject: [
                "title": title, "host": "h", "cwd": "/w", "busy": index % 2 == 0,
            ]), as: UTF8.self)
            #expect(await harness.call("PUT", "/api/sessions/s\(index)", body).status == 200)
        }
        let first = await harness.call("GET", "/api/sessions").text
        #expect(first == (try await expected(harness)))
        #expect(await harness.call("GET", "/api/sessions").text == first)

        // One session changes: its entry is replaced, the others are reused.
        let put = await harness.call("PUT", "/api/sessions/s1", #"{"title":"renamed","host":"h","cwd":"/w","busy":true}"#)
        #expect(put.text == String(decoding: try WireJSON.encode(await harness.service.sessions()[1]), as: UTF8.self))
        #expect(await harness.call("GET", "/api/sessions").text == (try await expected(harness)))

        // Time alone changes busy sessions' listings (no news after the silence rule's wait).
        harness.time.advance(Double(SilenceRule.standard.noNewsAfter) + 1)
        let later = await harness.call("GET", "/api/sessions").text
        #expect(later != first)
        #expect(later == (try await expected(harness)))

        #expect(await harness.call("DELETE", "/api/sessions/s0").status == 200)
        #expect(await harness.call("GET", "/api/sessions").text == (try await expected(harness)))
    }
}
