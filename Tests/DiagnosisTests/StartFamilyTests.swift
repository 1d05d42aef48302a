import Diagnosis
import Testing

@Suite struct StartFamilyTests {
    @Test("A start adopted within 90 s belongs to the delivery-or-content family")
    func adoptedStartIsDeliveryFamily() throws {
        var log = LogFixture()
        log.start(1_000)
        log.line(1_012, "adopted", ["token": "cccc3333", "env": "sandbox"])
        log.update(1_020)
        let device = try #require(log.report().devices.first)
        #expect(device.starts.total == 1)
        #expect(device.starts.adopted == 1)
        let start = try #require(device.starts.listed.first)
        #expect(start.outcome == .adopted)
        #expect(start.family == .deliveryOrContent)
        #expect(start.adoptedAfterSeconds == 12)
        #expect(device.longestFrozen == FrozenStretch(kind: .unadoptedStart, from: 1_000, to: 1_012, seconds: 12, endedBy: "adopted"))
    }

    @Test("A start with no adoption within 90 s is the idle-phone gap, frozen until the client ends it")
    func unadoptedStartIsIdlePhoneGap() throws {
        var log = LogFixture()
        log.start(1_000)
        log.update(1_050)
        log.update(1_100)
        log.line(1_400, "client-ended")
        log.line(1_500, "decide", ["action": "end", "tokens": 1])
        let device = try #require(log.report().devices.first)
        #expect(device.starts.notAdopted == 1)
        #expect(device.starts.listed.map(\.family) == [.idlePhoneGap])
        #expect(device.longestFrozen == FrozenStretch(kind: .unadoptedStart, from: 1_000, to: 1_400, seconds: 400, endedBy: "client-ended"))
    }

    @Test("An adoption at exactly 90 s is in time; one a moment later is late", arguments: [(90.0, true), (90.5, false)])
    func adoptionWindowEdge(delay: Double, isAdopted: Bool) throws {
        var log = LogFixture()
        log.start(1_000)
        log.line(1_000 + delay, "adopted")
        let device = try #require(log.report().devices.first)
        #expect(device.starts.listed.first?.outcome == (isAdopted ? .adopted : .adoptedLate))
    }

    @Test("A start no token accepted is not delivered and freezes nothing")
    func undeliveredStart() throws {
        var log = LogFixture()
        log.start(1_000, accepted: false)
        log.line(2_000, "start-vetoed", ["veto": ["a"], "active": 1])
        let device = try #require(log.report().devices.first)
        #expect(device.starts.notDelivered == 1)
        #expect(device.starts.listed.first?.family == .notDelivered)
        #expect(device.longestFrozen == nil)
        #expect(device.startVetoes == 1)
    }

    @Test("A log that ends inside the window leaves the start undetermined and the stretch open")
    func startAtEndOfLogIsUndetermined() throws {
        var log = LogFixture()
        log.start(1_000)
        log.update(1_030)
        let device = try #require(log.report().devices.first)
        #expect(device.starts.undetermined == 1)
        #expect(device.longestFrozen?.endedBy == "end-of-log")
        #expect(device.longestFrozen?.seconds == 30)
    }

    @Test("Devices are diagnosed separately")
    func devicesAreSeparate() throws {
        var log = LogFixture()
        log.start(1_000)
        log.device = "other"
        log.start(1_001)
        log.line(1_005, "adopted")
        let report = log.report()
        #expect(report.devices.map(\.deviceId) == ["other", "phone"])
        #expect(report.devices.map(\.starts.adopted) == [1, 0])
        #expect(report.devices.map(\.starts.undetermined) == [0, 1])
    }
}
