import Dashboard
import FleetCore
import Foundation
import HTTPTypes
import Testing

/// The page's event list is generated from the decision-log schema; these fail when the two differ.
@Suite struct DashboardEventsTests {
    let routes = DashboardRoutes(source: FixedSource.busyPhone(), now: { FixedSource.now })

    func asset(_ path: String) async throws -> String {
        let response = await routes.respond(to: HTTPRequest(method: "GET", path: path))
        return String(decoding: try #require(response.bodyData), as: UTF8.self)
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test("The script describes every schema event, and names no event the schema lacks")
    func scriptCoversTheSchema() async throws {
        let script = try await asset("/dashboard.js")
        let described = Set(try Self.matches(#"case EVENT\.([A-Za-z]+):"#, in: script))
        let referenced = Set(try Self.matches(#"EVENT\.([A-Za-z]+)"#, in: script))
        let schema = Set(DecisionEvent.allCases.map { String(describing: $0) })
        #expect(described == schema, "described but not in the schema: \(described.subtracting(schema)); undescribed: \(schema.subtracting(described))")
        #expect(referenced.isSubset(of: schema), "unknown: \(referenced.subtracting(schema))")
    }

    @Test("Event names are spelled only in the generated EVENT constant: the script compares with EVENT only")
    func namesSpelledOnce() async throws {
        let script = try await asset("/dashboard.js")
        let generated = Set(try Self.matches(#"\n  [A-Za-z]+: "([a-z-]+)","#, in: script))
        #expect(generated == Set(DecisionEvent.allCases.map(\.rawValue)))
        let compared = Set(try Self.matches(#"(?:case|===|!==)\s*"([a-z-]+)""#, in: script))
        let spelled = compared.intersection(generated)
        #expect(spelled.isEmpty, "compared with a spelled event name instead of EVENT: \(spelled)")
    }

    @Test("Every field the script reads from a log line is a schema field")
    func fieldsAreSchemaFields() async throws {
        let script = try await asset("/dashboard.js")
        let read = Set(try Self.matches(#"\bline\.([A-Za-z]+)"#, in: script))
        let schema = Set(LogField.allCases.map(\.rawValue))
        #expect(!read.isEmpty)
        #expect(read.isSubset(of: schema), "not in the schema: \(read.subtracting(schema))")
    }

    @Test("The stylesheet colours every event's badge")
    func stylesheetCoversTheSchema() async throws {
        let css = try await asset("/dashboard.css")
        for event in DecisionEvent.allCases { #expect(css.contains(".ev-\(event.rawValue) {"), "\(event.rawValue)") }
    }
}
