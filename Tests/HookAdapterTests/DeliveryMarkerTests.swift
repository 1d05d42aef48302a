import FleetCore
import Foundation
import HookAdapter
import Testing

/// Delivery markers (`hook-paused-until`, `hook-refused-token`) that cannot be written are counted in the
/// delivery result and said by `lfg hook`, never dropped (issue 12: no `try?` on a write that matters).
@Suite("Delivery markers that cannot be written, and a host's delivery when rung")
struct DeliveryMarkerTests {
    static let token = TokenFingerprint.of("t1")

    /// Puts a non-empty folder where the marker file goes, so writing the marker (renaming onto it) fails.
    static func blockMarker(_ folder: TemporaryFolder, _ name: String) throws {
        try FileManager.default.createDirectory(atPath: folder.file(name + "/keep"), withIntermediateDirectories: true)
    }

    static func record(_ folder: TemporaryFolder, _ payload: String) async -> SpoolDrainer.Result {
        let runner = HookRunner(
            files: HookFiles(home: folder.url), delivery: RecordingReportDelivery { _ in .delivered }, wallClock: { 1_000 })
        return await runner.handle(payload, deadline: HookDeadline(seconds: 5)).drain
    }

    @Test("A 401 whose refused-token marker cannot be written: the failure is counted, the report kept")
    func refusedTokenMarkerFails() async throws {
        let folder = try TemporaryFolder()
        try Self.blockMarker(folder, "hook-refused-token")
        let files = HookFiles(home: folder.url)
        let runner = HookRunner(
            files: files, delivery: RecordingReportDelivery { _ in .unauthorized }, tokenFingerprint: Self.token,
            wallClock: { 1_000 })
        let result = await runner.handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 5)).drain
        #expect(result.stoppedBecause == .unauthorized)
        #expect(result.markerFailures.count == 1)
        #expect(files.pendingReports().count == 1)
    }

    @Test("A timeout whose pause marker cannot be written: the failure is counted, the report kept")
    func pauseMarkerFails() async throws {
        let folder = try TemporaryFolder()
        try Self.blockMarker(folder, "hook-paused-until")
        let files = HookFiles(home: folder.url)
        let runner = HookRunner(
            files: files, delivery: RecordingReportDelivery { _ in .timedOut(reason: "timed out") }, wallClock: { 1_000 })
        let result = await runner.handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 5)).drain
        #expect(result.stoppedBecause == .failed("timed out"))
        #expect(result.markerFailures.count == 1)
        #expect(files.pendingReports().count == 1)
    }

    @Test("Markers that can be written are no failure")
    func markersWritten() async throws {
        let folder = try TemporaryFolder()
        let files = HookFiles(home: folder.url)
        let runner = HookRunner(
            files: files, delivery: RecordingReportDelivery { _ in .timedOut(reason: "timed out") }, wallClock: { 1_000 })
        let result = await runner.handle(RecordedPayloads.sessionStart, deadline: HookDeadline(seconds: 5)).drain
        #expect(result.markerFailures.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.file("hook-paused-until")))
    }

    @Test("When rung, the host delivers the sessions rung first, then every other pending one (rings can be lost)")
    func deliverRung() async throws {
        let folder = try TemporaryFolder()
        let files = HookFiles(home: folder.url)
        for sid in ["a", "b", "c"] {
            let event = HookEvent(name: .userPromptSubmit, sessionID: sid, cwd: "/w", prompt: "go \(sid)")
            try files.inbox.record(
                Data(RecordedEvent(event: event, host: .local, recordedAt: 1).encoded().utf8), key: sid, wallNanoseconds: 5)
        }
        let delivery = RecordingReportDelivery { _ in .delivered }
        let result = await SpoolDrainer.deliverRung(
            HostDoorbell.Listener.Rings(keys: ["c", "gone"], everySession: false), SessionDeliverer(files: files, delivery: delivery),
            deadline: HookDeadline(seconds: 5))
        #expect(result.delivered == 3 && result.remaining == 0 && result.stoppedBecause == nil)
        #expect(await delivery.delivered.map(\.sid.rawValue) == ["c", "a", "b"])
        #expect(files.inbox.sessionKeys().isEmpty)
    }
}
