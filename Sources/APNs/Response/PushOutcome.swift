/// What the caller must do after a push: the one value a watcher switches on.
public enum PushOutcome: String, Hashable, Sendable, CaseIterable, Codable {
    /// APNs took the push (`200`). Not a delivery receipt: a dead Live Activity token also answers 200.
    case accepted
    /// The token (or broadcast channel) will never work again (410 `Unregistered` / `ExpiredToken`,
    /// 400 `BadDeviceToken`; 400 `ChannelNotRegistered` for a channel): prune it.
    case tokenDead
    /// Nothing is wrong with the token or the configuration; send again later (429, 5xx, transport failures).
    case retryLater
    /// Our credentials, topic or request are wrong: surface loudly and do not retry as is.
    case configurationError
}

/// What to do about one APNs answer, finer than ``PushOutcome``.
public enum PushRemedy: String, Hashable, Sendable, CaseIterable, Codable {
    /// Forget the token; do not retry.
    case dropToken
    /// The broadcast channel no longer exists (deleted, or the other environment's): forget it, stop
    /// publishing to it, and make a new one or fall back to token mode (reference 5.3, 5.6).
    case dropChannel
    /// No more channels can be made (`CannotCreateChannelConfig`, the 10,000 limit of reference 5.3):
    /// drive this device in token mode, and delete channels no longer needed.
    case useTokenMode
    /// Mint a new provider JWT and retry once.
    case refreshProviderToken
    /// Keep using the cached provider JWT; retry later.
    case reuseProviderToken
    /// Retry with back-off.
    case backOff
    /// Open a new connection and resend.
    case reconnect
    /// Fix the key, key id, team id, bundle id or topic; do not retry.
    case fixConfiguration
    /// Fix how the request is built; do not retry as is.
    case fixRequest

    /// The outcome this remedy implies.
    public var outcome: PushOutcome {
        switch self {
        case .dropToken, .dropChannel: .tokenDead
        case .refreshProviderToken, .reuseProviderToken, .backOff, .reconnect: .retryLater
        case .fixConfiguration, .fixRequest, .useTokenMode: .configurationError
        }
    }
}
