/// The iOS the simulated phones run (`lfg simulate --ios 17|18`).
///
/// iOS 18 phones can follow broadcast channels: the app asks its server for channel mode
/// (`"liveActivityChannels": true`) and a card can be push-started with `input-push-channel` or
/// requested with `.channel(id)`. iOS 17 phones have token mode only, and a start naming a channel
/// starts nothing on them.
public enum IOSVersion: Int, CaseIterable, Hashable, Sendable {
    case ios17 = 17
    case ios18 = 18

    /// Whether cards can follow broadcast channels.
    public var supportsChannels: Bool { self == .ios18 }
}
