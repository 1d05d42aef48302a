import Diagnosis
import FleetCore
import FleetCoreTesting
import Testing

@Suite struct SchemaReadingTests {
    @Test("The parser reads every event the writer writes, with the fields the diagnosis uses")
    func readsEveryEvent() throws {
        for line in DecisionLogSamples.all {
            let entry = try #require(LogLineParser.parse(line.jsonText), "\(line.event.rawValue)")
            #expect(entry.event == line.event)
            #expect(entry.ts == line.ts)
            #expect(entry.deviceId == line.deviceId.rawValue)
            #expect(entry.action == line.action)
            #expect(entry.token == line.string(.token))
            #expect(entry.status == line.integer(.status))
            #expect(entry.reason == line.string(.reason))
            #expect(entry.tokens == line.integer(.tokens))
            #expect(entry.milliseconds == line.number(.ms))
        }
    }

    @Test("An event newer than the schema is an entry the analysis skips, not a garbled line")
    func unknownEvent() {
        let entry = LogLineParser.parse(#"{"ts":1,"event":"from-the-future","deviceId":"p"}"#)
        #expect(entry == LogEntry(ts: 1, event: nil, deviceId: "p"))
        #expect(LogLineParser.parse(#"{"ts":1,"event":null}"#) == nil)
        #expect(LogLineParser.parse(#"{"ts":1,"event":"decide","action":"sideways"}"#)?.action == nil)
    }
}
