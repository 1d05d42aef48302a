import AsyncTesting
import ControlPlane
import FleetCore
import Foundation
import Testing

/// Contract 8.1 and 8.4: `GET /api/devices/{id}`, `GET /api/push/live-activity/state` and
/// `GET /api/push/live-activity/tokens` show the account's whole picture whichever instance a client reaches,
/// each device with the instance driving it.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.url != nil, "needs LFG_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct CrossInstanceDeviceListingTests {
    static func device(_ index: Int) -> String {
        let token = String(repeating: String(index), count: 64)
        return #"{"env":"sandbox","pushToStartToken":"\#(token)","hiddenDirs":["/hidden-\#(index)"]}"#
    }

    @Test("Every instance lists all three instances' devices, their cards and who drives each; any instance answers for any device", .timeLimit(.minutes(1)))
    func everyInstanceListsTheWholeAccount() async throws {
        try await SharedServices.with(instances: 3) { world in
            // Each phone registers through a different instance, which claims it (a first registration).
            for index in 0..<3 {
                #expect(await world.call(index, "PUT", "/api/devices/phone-\(index)", Self.device(index)).status == 200)
            }
            #expect(await world.call(0, "PUT", "/api/sessions/s1", #"{"title":"Build","busy":true,"cwd":"/work"}"#).status == 200)
            // Every instance hears of the session and ticks: each starts the card of the phone it drives.
            for instance in world.instances {
                try await bounded("every instance heard of the session") {
                    while await instance.service.sessions().isEmpty { await Task.yield() }
                }
                await instance.service.tick()
            }

            for index in 0..<3 {
                let state = await world.call(index, "GET", "/api/push/live-activity/state")
                #expect(state.status == 200)
                let devices = try #require(state.json["devices"] as? [[String: Any]])
                #expect(devices.map { $0["deviceId"] as? String } == ["phone-0", "phone-1", "phone-2"], "listed by instance \(index)")
                #expect(devices.map { $0["drivenBy"] as? String } == ["instance-0", "instance-1", "instance-2"])
                #expect(devices.map { ($0["tokens"] as? [String: Any])?["pushToStart"] as? Int } == [1, 1, 1])
                #expect(state.json["devicesNotListed"] as? Int == 0)
                #expect(state.json["devicesElsewhereError"] == nil)
                // Each card, started by the instance driving its phone, as every instance lists it.
                for (position, device) in devices.enumerated() {
                    let card = try #require(device["card"] as? [String: Any], "phone-\(position)'s card as instance \(index) lists it")
                    #expect((card["contentState"] as? [String: Any])?["working"] as? Int == 1)
                    #expect((card["since"] as? [String: Any])?.keys.sorted() == ["s1"])
                    #expect(card["origin"] as? String == "pushToStart")
                }

                // Every phone's token, whichever instance drives it (first 8 hex characters only).
                let tokens = await world.call(index, "GET", "/api/push/live-activity/tokens")
                #expect(tokens.status == 200)
                let listed = try #require(tokens.json["tokens"] as? [[String: Any]])
                #expect(listed.map { $0["deviceId"] as? String } == ["phone-0", "phone-1", "phone-2"], "tokens by instance \(index)")
                #expect(listed.map { $0["drivenBy"] as? String } == ["instance-0", "instance-1", "instance-2"])
                #expect(listed.map { $0["token"] as? String } == ["00000000", "11111111", "22222222"])
                #expect(listed.map { $0["kind"] as? String } == ["pushToStart", "pushToStart", "pushToStart"])
                #expect(tokens.json["devicesNotListed"] as? Int == 0)
                #expect(tokens.json["devicesElsewhereError"] == nil)

                for other in 0..<3 {
                    let device = await world.call(index, "GET", "/api/devices/phone-\(other)")
                    #expect(device.status == 200, "phone-\(other) through instance \(index)")
                    #expect(device.json["drivenBy"] as? String == "instance-\(other)")
                    #expect(device.json["hiddenDirs"] as? [String] == ["/hidden-\(other)"])
                }
                #expect(await world.call(index, "GET", "/api/devices/phone-9").status == 404)
            }
        }
    }
}
