// A deliberately wrong call: ActivityKit's request takes `attributes:content:pushType:`, not `attribute:`.
// scripts/check-apple-sources.sh requires this file to FAIL the type-check, with the diagnostic below:
// proof that the stand-in catches a wrong label, which `swiftc -parse` never did.
// expect-error: incorrect argument label in call (have 'attribute:content:pushType:', expected 'attributes:content:pushType:')
import ActivityKit

struct FixtureAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable { var count: Int }
}

func startCard() throws {
    _ = try Activity.request(
        attribute: FixtureAttributes(), content: ActivityContent(state: .init(count: 1), staleDate: nil), pushType: .token)
}
