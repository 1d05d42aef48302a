import APNs
import ControlPlane
import FleetCore
import Foundation
import Testing

/// The device endpoints of contract 8.1, through the router, against the scripted APNs.
@Suite struct ChannelAPITests {
    static let channelPhone = #"{"env":"sandbox","liveActivityChannels":true,"pushToStartToken":"\#(hexA)"}"#

    @Test("PUT liveActivityChannels, then GET the device: token mode until the channel exists, then its id and channel mode")
    func getDeviceShowsChannel() async throws {
        let harness = try await ServiceHarness()
        #expect(await harness.call("PUT", "/api/devices/phone", Self.channelPhone).status == 200)
        let before = await harness.call("GET", "/api/devices/phone")
        #expect(before.status == 200)
        #expect(before.json["mode"] as? String == "token")
        #expect(before.json["channelId"] is NSNull)
        #expect(before.json["liveActivityChannels"] as? Bool == true)
        #expect((before.json["tokens"] as? [String: Any])?["pushToStart"] as? Int == 1)
        await harness.service.tick()
        let channel = try #require(harness.gateway.liveChannels.first)
        let after = await harness.call("GET", "/api/devices/phone")
        #expect(after.json["mode"] as? String == "channel")
        #expect(after.json["channelId"] as? String == channel.rawValue)
        #expect(try await harness.store.load().devices["phone"]?.channel.current?.id == channel)
        let state = await harness.call("GET", "/api/push/live-activity/state")
        let device = try #require((state.json["devices"] as? [[String: Any]])?.first)
        #expect(device["mode"] as? String == "channel")
        #expect(device["channel"] as? String == String(channel.rawValue.prefix(8)))
        #expect(!state.text.contains(channel.rawValue))
    }

    @Test("An unknown device is a 404 to GET and DELETE; a wrong liveActivityChannels type is a 400 naming it")
    func errors() async throws {
        let harness = try await ServiceHarness()
        #expect(await harness.call("GET", "/api/devices/nobody").status == 404)
        #expect(await harness.call("DELETE", "/api/devices/nobody").status == 404)
        let bad = await harness.call("PUT", "/api/devices/phone", #"{"env":"sandbox","liveActivityChannels":"yes"}"#)
        #expect(bad.status == 400)
        #expect(bad.field == "liveActivityChannels")
    }

    @Test("DELETE a device: its channel is deleted at APNs and the device is gone from the store")
    func deleteDevice() async throws {
        let harness = try await ServiceHarness()
        await harness.call("PUT", "/api/devices/phone", Self.channelPhone)
        await harness.service.tick()
        #expect(harness.gateway.liveChannels.count == 1)
        #expect(await harness.call("DELETE", "/api/devices/phone").status == 200)
        #expect(harness.gateway.liveChannels.isEmpty)
        #expect(await harness.call("GET", "/api/devices/phone").status == 404)
        #expect(try await harness.store.load().devices["phone"] == nil)
        #expect(try await harness.store.load().retiredChannels.isEmpty)
    }

    @Test("At the channel limit GET shows token mode and why; the decision log has the fallback line")
    func limitFallback() async throws {
        let harness = try await ServiceHarness()
        harness.gateway.limitChannels(to: 0)
        await harness.call("PUT", "/api/devices/phone", Self.channelPhone)
        await harness.service.tick()
        let device = await harness.call("GET", "/api/devices/phone")
        #expect(device.json["mode"] as? String == "token")
        #expect(device.json["channelFallback"] as? String == "CannotCreateChannelConfig")
        let line = try #require(harness.log.all.first { $0.event == .channelFailed })
        #expect(line.fields[.fallback] == .string("token"))
    }

    @Test("The app reports its own channel card: adopted; an id the device does not hold is a 404")
    func channelCard() async throws {
        let harness = try await ServiceHarness()
        await harness.call("PUT", "/api/devices/phone", Self.channelPhone)
        await harness.service.tick()
        let channel = try #require(harness.gateway.liveChannels.first)
        let other = Data("someone else".utf8).base64EncodedString()
        let wrong = await harness.call(
            "POST", "/api/push/live-activity/channel-card", #"{"deviceId":"phone","channelId":"\#(other)"}"#)
        #expect(wrong.status == 404)
        let notBase64 = await harness.call(
            "POST", "/api/push/live-activity/channel-card", #"{"deviceId":"phone","channelId":"%%%"}"#)
        #expect(notBase64.status == 400)
        let right = await harness.call(
            "POST", "/api/push/live-activity/channel-card", #"{"deviceId":"phone","channelId":"\#(channel.rawValue)"}"#)
        #expect(right.status == 200)
        #expect(harness.log.all.last?.event == .adopted)
    }

    @Test("LFG_STALE_AFTER_S sets the stale date; out of range is refused naming the variable")
    func staleAfterSetting() throws {
        let config = try ServerConfig.load(environment: ["LFG_HOME": "/tmp/x", "LFG_STALE_AFTER_S": "600"], readFile: { _ in nil })
        #expect(config.cardPolicy.staleAfter == 600)
        let defaulted = try ServerConfig.load(environment: ["LFG_HOME": "/tmp/x"], readFile: { _ in nil })
        #expect(defaulted.cardPolicy.staleAfter == CardPolicy.defaultStaleAfterSeconds)
        #expect(throws: ConfigError.self) {
            try ServerConfig.load(environment: ["LFG_HOME": "/tmp/x", "LFG_STALE_AFTER_S": "5"], readFile: { _ in nil })
        }
    }
}
