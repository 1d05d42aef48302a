import FleetCore
import Synchronization

/// How long one provider token is reused: APNs rejects a token older than 60 minutes
/// (`403 ExpiredProviderToken`) and one replaced more often than every 20 minutes
/// (`429 TooManyProviderTokenUpdates`).
public struct ProviderTokenPolicy: Hashable, Sendable {
    /// The shortest reuse APNs tolerates: 20 minutes.
    public static let minimumReuse: Double = 20 * 60
    /// The longest life APNs grants a token: 60 minutes.
    public static let maximumAge: Double = 60 * 60

    /// Seconds a token is reused before a new one is minted; within 20 ... 55 minutes.
    public let refreshAfter: Double

    /// Clamps `refreshAfter` into 20 ... 55 minutes (5 minutes short of the hour leaves room for skew).
    public init(refreshAfter: Double = 40 * 60) {
        self.refreshAfter = min(max(refreshAfter, Self.minimumReuse), Self.maximumAge - 5 * 60)
    }

    /// Whether a token issued at `issuedAt` may still be used at `now`.
    ///
    /// A clock that went back more than a minute also retires it, since APNs would see a future `iat`.
    public func isReusable(issuedAt: UnixTime, now: UnixTime) -> Bool {
        now - issuedAt < refreshAfter && now - issuedAt > -60
    }
}

/// The one provider token shared by every connection: minted on first use, reused per the policy,
/// replaced at once when APNs answers `403 ExpiredProviderToken` for it.
///
/// Thread-safe; signing happens under the lock so concurrent callers never mint twice.
public final class ProviderTokenCache: Sendable {
    struct Cached: Sendable {
        let token: String
        let issuedAt: UnixTime
    }

    private let keyID: String
    private let teamID: String
    private let key: any SigningKey
    private let clock: WallClock
    private let policy: ProviderTokenPolicy
    private let state = Mutex<(cached: Cached?, mints: Int)>((nil, 0))

    public init(keyID: String, teamID: String, key: any SigningKey, clock: WallClock,
                policy: ProviderTokenPolicy = ProviderTokenPolicy()) {
        self.keyID = keyID
        self.teamID = teamID
        self.key = key
        self.clock = clock
        self.policy = policy
    }

    /// The current token, minting a new one when there is none or it is due for replacement.
    public func token() throws(SigningError) -> String {
        let now = clock.now
        return try state.withLock { (state) throws(SigningError) -> String in
            if let cached = state.cached, policy.isReusable(issuedAt: cached.issuedAt, now: now) {
                return cached.token
            }
            let claims = ProviderTokenClaims(keyID: keyID, teamID: teamID, issuedAt: UnixSeconds(timestamp: now))
            let token = claims.token(signature: try key.signES256(Array(claims.signingInput.utf8)))
            state.cached = Cached(token: token, issuedAt: now)
            state.mints += 1
            return token
        }
    }

    /// APNs answered `ExpiredProviderToken` for `token`: forget it so the next call mints afresh.
    ///
    /// Only the rejected token is dropped; when many in-flight pushes report the same token, the
    /// first report retires it and the rest find a newer token already in place.
    public func tokenExpired(_ token: String) {
        state.withLock { state in
            if state.cached?.token == token { state.cached = nil }
        }
    }

    /// How many tokens were minted so far (for tests and `lfg bench apns`).
    public var mintCount: Int { state.withLock { $0.mints } }
}
