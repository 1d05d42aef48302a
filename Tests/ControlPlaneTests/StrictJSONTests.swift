import ControlPlane
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// Request bodies are read strictly: what is ambiguous or not UTF-8 JSON is a 400 that says why, in
/// words with no Swift type names, and nothing changes.
@Suite struct StrictJSONTests {
    static func put(_ harness: ServiceHarness, _ body: [UInt8]) async -> (status: Int, error: ErrorBody?) {
        let response = await harness.router.respond(to: HTTPRequest(
            method: "PUT", path: "/api/devices/phone",
            headers: ["Authorization": "Bearer \(ServiceHarness.token)", "Content-Type": "application/json"],
            body: Data(body)))
        return (response.status, try? JSONDecoder().decode(ErrorBody.self, from: response.bodyData ?? Data()))
    }

    static let utf16 = Array(#"{"env":"sandbox"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    static let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)

    static let refused: [(name: String, body: [UInt8], says: String)] = [
        ("trailing comma", Array(#"{"env":"sandbox",}"#.utf8), "expected a string key"),
        ("trailing comma in an array", Array(#"{"env":"sandbox","hiddenDirs":["a",]}"#.utf8), "expected a value"),
        ("duplicate key", Array(#"{"env":"sandbox","env":"bogus"}"#.utf8), "'env' appears twice"),
        ("byte-order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"env":"sandbox"}"#.utf8), "byte-order mark"),
        ("UTF-16", utf16, "UTF-16"),
        ("broken UTF-8", Array(#"{"env":"sandbox","hiddenDirs":[""#.utf8) + [0xFF] + Array(#""]}"#.utf8), "not valid UTF-8"),
        ("deep nesting", Array(#"{"env":"sandbox","hiddenDirs":\#(deep)}"#.utf8), "nested too deep"),
    ]

    @Test("Ambiguous or non-UTF-8 JSON is a 400 that says what is wrong", arguments: refused.indices)
    func refusedBodies(index: Int) async throws {
        let harness = try await ServiceHarness()
        let before = await harness.observable()
        let bad = Self.refused[index]
        let reply = await Self.put(harness, bad.body)
        #expect(reply.status == 400, "\(bad.name)")
        #expect(reply.error?.error.contains(bad.says) == true, "\(bad.name): \(reply.error?.error ?? "no error body")")
        #expect(await harness.observable() == before)
    }

    static let wrongTypes: [(body: String, field: String, says: String)] = [
        (#"{"title":"t","prompt":{"kind":"dance","text":"?"}}"#, "prompt.kind", "unknown value 'dance'; use question, permission, plan or signin"),
        (#"{"title":"t","prompt":"x"}"#, "prompt", "expected an object"),
        (#"{"title":"t","prompt":{"kind":5,"text":"?"}}"#, "prompt.kind", "expected a string"),
    ]

    @Test("A wrong type or value names the field and the allowed values, never a Swift type", arguments: wrongTypes.indices)
    func plainErrors(index: Int) async throws {
        let harness = try await ServiceHarness()
        let bad = Self.wrongTypes[index]
        let reply = await harness.call("PUT", "/api/sessions/s1", bad.body)
        #expect(reply.status == 400)
        #expect(reply.field == bad.field)
        let message = reply.json["error"] as? String ?? ""
        #expect(message.contains(bad.says), "\(message)")
        for internalName in ["Dictionary", "Cannot initialize", "Swift.", "Kind", "Optional"] {
            #expect(!message.contains(internalName), "\(message)")
        }
    }
}
