@testable import APNs
import FleetCore

enum Fixture {
    static let tokenHex = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    static let token = try! DeviceToken(hex: tokenHex)
    static let bundle = BundleID("dev.lfg.app")
    static let channel = try! BroadcastChannelID("dHVuYS1jaGFubmVsLWlkLTAwMQ==")

    static let state = ContentState(
        working: 2, needsInput: 1,
        rows: [
            Row(sid: "s1", title: "Fix the build", state: .needsInput, since: 1_764_399_000),
            Row(sid: "s2", title: "Write tests", state: .working, since: 1_764_399_100),
        ],
        more: 1, updatedAt: 1_764_400_000.5)

    static let stateJSON: JSONValue = .object([
        "working": .number(2), "needsInput": .number(1), "more": .number(1), "updatedAt": .number(1_764_400_000.5),
        "rows": .array([
            .object(["sid": .string("s1"), "title": .string("Fix the build"), "state": .string("needsInput"),
                     "since": .number(1_764_399_000)]),
            .object(["sid": .string("s2"), "title": .string("Write tests"), "state": .string("working"),
                     "since": .number(1_764_399_100)]),
        ]),
    ])
}
