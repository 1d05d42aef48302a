import FleetCore

extension Watcher {
    /// Answers whose commit failed: release what each one answered, so nothing waits for an answer that
    /// will never come. Before this, one failed commit left the device's push pending and every later
    /// tick skipped the device until a restart. Memory only: there is nothing to store, as nothing changed.
    mutating func forgetInFlight(_ answers: [WatcherEvent], now: UnixTime) -> [WatcherEffect] {
        for answer in answers {
            switch answer {
            case .pushAnswered(let receipt, _):
                guard boxes[receipt.deviceId]?.pending?.batch.id == receipt.batchId else { continue }
                boxes[receipt.deviceId]?.pending = nil
            case .channelCreationAnswered(let deviceId, _, _, _):
                boxes[deviceId]?.isChannelRequested = false
            case .channelDeletionAnswered(let channel, _, _):
                guard channelDeletions[channel.id] == .inFlight else { continue }
                channelDeletions[channel.id] = .retry(at: now + Self.channelDeletionRetry)
            default:
                continue
            }
        }
        return []
    }
}
