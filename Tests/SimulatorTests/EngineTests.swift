import FleetCore
import Testing

@testable import Simulator

@Suite struct EngineTests {
    @Test("Actions at one instant run in the order they were scheduled; earlier instants first")
    func queueOrder() {
        var queue = EventQueue<String>()
        queue.schedule(at: 2, "c")
        queue.schedule(at: 1, "a")
        queue.schedule(at: 2, "d")
        queue.schedule(at: 1, "b")
        queue.schedule(at: 0.5, "first")
        var order: [String] = []
        while let (_, action) = queue.popFirst() { order.append(action) }
        #expect(order == ["first", "a", "b", "c", "d"])
    }

    @Test("SplitMix64 gives the reference sequence for seed 0")
    func splitMixReference() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("Exponential waits average their mean")
    func exponentialMean() {
        var generator = SplitMix64(seed: 42)
        var total = 0.0
        for _ in 0..<20_000 { total += generator.exponential(mean: 10) }
        #expect(abs(total / 20_000 - 10) < 0.3)
    }

    @Test("Hex tokens are lowercase hex of the asked length")
    func hexToken() {
        var generator = SplitMix64(seed: 1)
        let token = generator.hexToken(byteCount: 32)
        #expect(token.count == 64)
        #expect(token.allSatisfy { "0123456789abcdef".contains($0) })
    }
}
