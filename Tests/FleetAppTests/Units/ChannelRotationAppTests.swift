import FleetApp
import FleetAppTesting
import FleetCore
import Testing

/// Guard `channel-rotation`, the app's half: a renewal moves the device to a fresh channel, and a card the
/// app requested on the old one hears nothing more, so the app re-reads `GET /api/devices/{id}` and moves
/// its card to the channel the server names now.
@Suite struct ChannelRotationAppTests {
    static func cardOnChannelA(guards: GuardSet) -> PhoneHarness {
        let harness = PhoneHarness(
            guards: guards, behaviour: .init(supportsChannels: true), requestsChannelCards: true)
        harness.deviceInfo = DeviceChannelInfo(channelId: "chanA", mode: "channel")
        harness.phone.launch(inForeground: true)
        harness.run(for: 1)
        harness.change { $0.upsert(SessionReport(title: "A", host: .local, cwd: "/a", busy: true), for: "a") }
        harness.run(for: 1)
        return harness
    }

    @Test("After a renewal rotated the channel, the app's card on the old one is replaced by one on the new one")
    func movesToRotatedChannel() throws {
        let harness = Self.cardOnChannelA(guards: .all)
        #expect(harness.requestCommands.map(\.1) == [.channel("chanA")])
        harness.deviceInfo = DeviceChannelInfo(channelId: "chanB", mode: "channel")
        harness.liveChannels = ["chanB"]
        harness.phone.foreground()
        harness.run(for: 2)
        #expect(harness.requestCommands.map(\.1) == [.channel("chanA"), .channel("chanB")])
        #expect(harness.liveCards.count == 1)
        // The new card is reported on the channel the server knows (no 404 loop).
        let reports = harness.calls.compactMap { sent -> String? in
            if case .reportChannelCard(let id, _) = sent.call { id } else { nil }
        }
        #expect(reports == ["chanA", "chanB"])
    }

    @Test("Without channel-rotation the app's card stays on the retired channel, where nobody publishes")
    func withoutGuardStaysOnDeadChannel() throws {
        let harness = Self.cardOnChannelA(guards: .without(.channelRotation))
        harness.deviceInfo = DeviceChannelInfo(channelId: "chanB", mode: "channel")
        harness.liveChannels = ["chanB"]
        harness.phone.foreground()
        harness.run(for: 2)
        #expect(harness.requestCommands.map(\.1) == [.channel("chanA")])
    }
}
