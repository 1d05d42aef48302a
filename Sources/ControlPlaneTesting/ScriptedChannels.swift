import APNs
import ControlPlane
import FleetCore
import Foundation

/// The channel half of ``ScriptedPushGateway``: channels made and deleted as APNs would, with the
/// channel limit and scripted failures, and every request recorded.
struct ScriptedChannels: Sendable {
    var requests: [ChannelRequest] = []
    var live: [BroadcastChannelID] = []
    /// APNs' per-app limit (10,000 by default, as documented).
    var limit = 10_000
    /// Answers for the next requests, used before the script.
    var failures: [(Int, APNsReason?)] = []
    var publishAnswer: (Int, APNsReason?) = (200, nil)
    private var made = 0

    mutating func perform(_ request: ChannelRequest) -> ChannelAnswer {
        requests.append(request)
        if !failures.isEmpty {
            let (status, reason) = failures.removeFirst()
            return ChannelAnswer(status: status, reason: reason)
        }
        switch request {
        case .create:
            guard live.count < limit else { return ChannelAnswer(status: 400, reason: .cannotCreateChannelConfig) }
            made += 1
            let text = Data("scripted-channel-\(made)".utf8).base64EncodedString()
            do {
                let id = try BroadcastChannelID(text)
                live.append(id)
                return ChannelAnswer(status: 201, channelId: id)
            } catch {
                return ChannelAnswer(status: 0, failure: "the script made a bad channel id: \(error)")
            }
        case .delete(let channel):
            guard live.contains(channel.id) else { return ChannelAnswer(status: 400, reason: .channelNotRegistered) }
            live.removeAll { $0 == channel.id }
            return ChannelAnswer(status: 204)
        }
    }

    /// A publish: the scripted answer, or `ChannelNotRegistered` for a channel that does not exist.
    func publish(_ batch: PushBatch) -> ChannelAnswer {
        guard let channel = batch.channel, live.contains(channel.id) else {
            return ChannelAnswer(status: 400, reason: .channelNotRegistered)
        }
        return ChannelAnswer(status: publishAnswer.0, reason: publishAnswer.1)
    }
}
