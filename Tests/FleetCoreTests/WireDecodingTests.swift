import FleetCore
import Foundation
import Testing

@Suite("Lenient wire decoding")
struct WireDecodingTests {
    /// A content state as an older build pushed it: no `more`, no `updatedAt`, rows without `since`.
    static let oldBuildPayload = #"{"working": 2, "rows": [{"sid": "a", "title": "Old", "state": "working"}]}"#

    @Test("An old build's content state decodes with defaults instead of failing to render")
    func oldPayloadDecodes() throws {
        let state = try JSONDecoder().decode(ContentState.self, from: Data(Self.oldBuildPayload.utf8))
        #expect(state == ContentState(working: 2, needsInput: 0, rows: [Row(sid: "a", title: "Old", state: .working, since: 0)], more: 0, updatedAt: 0))
    }

    @Test("An unknown row state does not make the whole state fail to decode")
    func unknownRowState() throws {
        let json = #"{"working": 1, "rows": [{"sid": "a", "title": "T", "state": "thinking", "since": 5}]}"#
        let state = try JSONDecoder().decode(ContentState.self, from: Data(json.utf8))
        #expect(state.rows.first?.state == .unrecognized("thinking"))
        let reencoded = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(ContentState.self, from: reencoded) == state)
    }

    @Test("Empty objects decode to the contract's defaults")
    func emptyObjects() throws {
        let empty = Data("{}".utf8)
        #expect(try JSONDecoder().decode(ContentState.self, from: empty) == ContentState())
        #expect(try JSONDecoder().decode(LFGFleetAttributes.self, from: empty).fleetId == "fleet")
        #expect(try JSONDecoder().decode(Row.self, from: empty) == Row(sid: "", title: "", state: .working, since: 0))
        #expect(try JSONDecoder().decode(SessionReport.self, from: empty) == SessionReport())
    }

    @Test("A content state round-trips through the wire with the contract's key names")
    func roundTrip() throws {
        let state = ContentState(working: 1, needsInput: 1, rows: [.fixture("a", state: .needsInput, since: 12.5)], more: 3, updatedAt: 99)
        let data = try JSONEncoder().encode(state)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["working", "needsInput", "rows", "more", "updatedAt"])
        let row = try #require((object["rows"] as? [[String: Any]])?.first)
        #expect(Set(row.keys) == ["sid", "title", "state", "since"])
        #expect(row["state"] as? String == "needsInput")
        #expect(try JSONDecoder().decode(ContentState.self, from: data) == state)
    }

    @Test("A wrong type is an error that names the field")
    func wrongTypeNamesField() {
        let json = #"{"title": "x", "busy": "yes"}"#
        #expect {
            try JSONDecoder().decode(SessionReport.self, from: Data(json.utf8))
        } throws: { error in
            guard let decoding = error as? DecodingError else { return false }
            return InputError(decoding).description == "busy: expected a boolean"
        }
    }

    @Test("A session report defaults its host to local and keeps prompt kinds")
    func reportDefaults() throws {
        let json = #"{"title": "T", "prompt": {"kind": "plan", "text": "Approve?"}}"#
        let report = try JSONDecoder().decode(SessionReport.self, from: Data(json.utf8))
        #expect(report.host == .local)
        #expect(report.prompt == Prompt(kind: .plan, text: "Approve?"))
    }
}
