import AsyncTesting
import Synchronization
import Testing

@Suite struct TimeLimitTests {
    @Test("An await that finishes in time returns its value")
    func finishesInTime() async throws {
        let value = try await bounded("a quick answer", within: .seconds(30)) { 42 }
        #expect(value == 42)
    }

    @Test("A continuation nobody resumes becomes a named failure instead of a hang")
    func abandonedContinuationTimesOut() async {
        let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let error = await #expect(throws: TimeLimitExceeded.self) {
            try await bounded("a reply that never comes", within: .milliseconds(50)) {
                await withCheckedContinuation { continuation in parked.withLock { $0 = continuation } }
            }
        }
        #expect(error?.description == "timed out after 0.05 seconds waiting for a reply that never comes")
        parked.withLock { $0?.resume() }  // let the abandoned task end
    }

    @Test("The body's own error comes through unchanged")
    func errorsPassThrough() async {
        struct Boom: Error {}
        await #expect(throws: Boom.self) { try await bounded("a failing call") { throw Boom() } }
    }
}
