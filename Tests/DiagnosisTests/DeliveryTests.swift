import Diagnosis
import Testing

@Suite struct DeliveryTests {
    @Test("Sends are counted by status and reason, with latency")
    func sendsByStatusAndReason() throws {
        var log = LogFixture()
        log.update(100)
        log.update(200)
        log.update(300, status: 410, reason: "Unregistered")
        log.line(300, "token-pruned", ["token": "bbbb2222", "env": "sandbox", "kind": "update", "status": 410])
        let device = try #require(log.report().devices.first)
        #expect(device.sends.total == 3)
        #expect(device.sends.byStatus == [
            SendCount(status: 200, reason: nil, count: 2), SendCount(status: 410, reason: "Unregistered", count: 1),
        ])
        #expect(device.sends.meanMilliseconds == 20)
        #expect(device.prunedTokens == PrunedTokens(count: 1, tokens: ["bbbb2222"]))
        // The token took 200s from t=100 and proved dead at t=300.
        #expect(device.longestFrozen == FrozenStretch(
            kind: .deadToken, from: 100, to: 300, seconds: 200, endedBy: "token-pruned", token: "bbbb2222"))
    }

    @Test("Runs of partial and none-accepted deliveries end at a decide that met its threshold")
    func shortfallRuns() throws {
        var log = LogFixture()
        log.update(100)
        log.line(100, "partial", ["action": "update", "accepted": 1, "attempted": 2])
        log.update(102)
        log.line(102, "none-accepted", ["action": "update", "accepted": 0, "attempted": 2])
        log.update(104)
        log.line(104, "partial", ["action": "update", "accepted": 1, "attempted": 2])
        log.update(106)  // delivered
        log.update(108)  // closes the run of three
        log.line(108, "partial", ["action": "update"])
        log.line(110, "no-tokens", ["action": "update"])
        let shortfalls = try #require(log.report().devices.first).shortfalls
        #expect(shortfalls.partial == 3)
        #expect(shortfalls.noneAccepted == 1)
        #expect(shortfalls.noTokens == 1)
        #expect(shortfalls.runs == 2)
        #expect(shortfalls.longestRun == ShortfallRun(shortfalls: 3, from: 100, to: 104, isOpen: false))
    }

    @Test("A start decided with no tokens (decide tokens 0, then no-tokens) made no card and freezes nothing")
    func startWithoutTokens() throws {
        var log = LogFixture()
        log.line(100, "decide", ["action": "start", "tokens": 0, "working": 1, "needsInput": 0, "rows": ["a:working"]])
        log.line(100, "no-tokens", ["action": "start"])
        let device = try #require(log.report().devices.first)
        #expect(device.starts.total == 1)
        #expect(device.starts.notDelivered == 1)
        #expect(device.shortfalls.noTokens == 1)
        #expect(device.longestFrozen == nil)
    }

    @Test("Client-ended events are counted per clock hour with the peak")
    func clientEndedPerHour() throws {
        var log = LogFixture()
        for minute in 0..<3 { log.line(7_200 + Double(minute) * 60, "client-ended") }
        log.line(10_900, "client-ended")
        let ended = try #require(log.report().devices.first).clientEnded
        #expect(ended.total == 4)
        #expect(ended.peakPerHour == 3)
        #expect(ended.peakHour == 7_200)
        #expect(ended.perHour == [HourCount(hour: 7_200, count: 3), HourCount(hour: 10_800, count: 1)])
    }
}
