import Diagnosis
import Testing

@Suite struct ReportTextTests {
    @Test("The text report names each start's family and the frozen stretch in UTC")
    func textNamesFamilies() {
        var log = LogFixture()
        log.start(1_764_400_000)
        log.line(1_764_400_004, "adopted")
        log.start(1_764_403_600)
        log.line(1_764_403_900, "client-ended")
        let text = log.report().text(source: "test.log")
        #expect(text.contains("Device phone"))
        #expect(text.contains("2025-11-29 07:06:40Z start, 2 tokens: adopted after 4.0 s -> if stale: delivery or content"))
        #expect(text.contains("2025-11-29 08:06:40Z start, 2 tokens: never adopted (missing): its updates went to another card's token -> idle-phone gap"))
        #expect(text.contains("Longest possibly-frozen stretch: 5 min 0 s from 2025-11-29 08:06:40Z"))
    }
}
