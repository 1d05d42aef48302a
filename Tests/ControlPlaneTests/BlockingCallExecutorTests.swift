import ControlPlane
import Testing

/// ``BlockingCallExecutor``: an actor on it runs its calls on the executor's own thread, one at a time.
@Suite struct BlockingCallExecutorTests {
    actor Counter {
        let executor = BlockingCallExecutor(name: "lfg-test-counter")
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private(set) var values: [Int] = []

        /// Appends `value` after checking the call runs on the executor's thread (a blocking call would).
        func append(_ value: Int) -> Bool {
            values.append(value)
            return executor.isCurrent
        }
    }

    @Test("An actor on a BlockingCallExecutor runs every call on the executor's thread, never the caller's, one at a time")
    func callsRunOnTheExecutorsThread() async {
        let counter = Counter()
        #expect(!counter.executor.isCurrent)
        let onThread = await withTaskGroup(of: Bool.self) { group in
            for value in 0..<200 { group.addTask { await counter.append(value) } }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(onThread)
        #expect(await counter.values.sorted() == Array(0..<200))
    }
}
