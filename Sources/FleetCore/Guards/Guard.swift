/// A guard from the seed's guard table. Each exists because of a shipped failure; the simulator can
/// switch any of them off (`lfg simulate --without NAME`) to show that failure coming back.
public enum Guard: String, CaseIterable, Hashable, Sendable, Codable {
    /// App: an unknown count (empty store after a background launch, a host down) never ends the card.
    case endGateTrust = "end-gate-trust"
    /// Server: no push-to-start while every active sid is in the population the phone ended against.
    case startVeto = "start-veto"
    /// Server: one update token per device and env; a new one supersedes the corpse.
    case supersede = "supersede"
    /// Server: update and end count as delivered only when every addressed token accepts.
    case allAccept = "all-accept"
    /// Server: at most 3 push-to-start tokens per device and env, newest first.
    case pushToStartCap = "push-to-start-cap"
    /// App: at most one fleet card; the newest survives, the rest are ended.
    case dedupe = "dedupe"
    /// Server: an update-token registration adopts the app's card instead of starting a second.
    case adoptOnRegister = "adopt-on-register"
    /// Both: a sid seen twice in one reduction counts once.
    case sidDedupe = "sid-dedupe"
    /// Both: `updatedAt` never takes part in a change comparison.
    case updatedAtExcluded = "updated-at-excluded"
    /// App: tokens register with the default host only.
    case defaultHostOnly = "default-host-only"
    /// Server: only a server on the canonical push port (holding the home's lock) pushes.
    case pushPortGate = "push-port-gate"
    /// Both: at most 3 rows, so the lock screen never centre-clips the header.
    case maxRows = "max-rows"
    /// Server: an `/ended` report that lands while state loads wins over the stored state.
    case endedReportWins = "ended-report-wins"
    /// Server: an iOS 18 device that asks for it gets a broadcast channel; its card is push-started with
    /// `input-push-channel` and updated and ended by publishing, so no per-card token is needed (the
    /// idle phone that never hands back a new card's token).
    case broadcastChannels = "broadcast-channels"
    /// Server: every start and update carries a `stale-date`, and a steady card is refreshed before it,
    /// so a card nobody can reach any more reads stale instead of lying.
    case staleDate = "stale-date"
    /// Server: a card nearing iOS's 8-hour limit is replaced while sessions stay active.
    case renewal = "renewal"
    /// Server: a card's update token is forgotten when the card ends, and one never refreshed in 12 h.
    case tokenForgetting = "token-forgetting"
    /// Server: priority 10 only for what needs the person, within an hourly budget; routine updates are
    /// priority 5 and coalesced per device.
    case priorityBudget = "priority-budget"
    /// Server: a channel a card was ended on never carries a later card; the next card starts on a fresh
    /// channel, and the ended one is deleted only when APNs can no longer hold its `end` for an offline
    /// phone (else the stored `end` is replaced by the new card's update and the old card lives on).
    case channelRotation = "channel-rotation"
    /// Both: a busy session silent past ``SilenceRule/noNewsAfter`` while its host is up shows "no news"
    /// on its row instead of a confident "working" (seed 003); it stays counted, so it never zeroes or ends
    /// the card.
    case noNews = "no-news"
    /// App: a row's `since` comes from the server's listing when it has one for the session's state. The
    /// server reduces every change as it happens; an app that slept through some would date a session from
    /// when it woke, and order the rows by that (a hidden session jumping onto the card).
    case serverSince = "server-since"
    /// Server: a start goes to the device's newest push-to-start token only (per env; only the device's own
    /// env when it has one there). iOS mints a new token at launch and the old one starts nothing, and APNs
    /// keeps one push per device for an offline phone: a start to an older token, answered last, replaced
    /// the real one, and the card never came when the phone was back.
    case newestStartToken = "newest-start-token"
    /// Server: a change of the counts (a session began or finished) or of who waits (a question answered)
    /// goes at priority 10 while the device got fewer priority-10 pushes in the last hour than its spare
    /// allowance (`PushBudget.spareImmediatePerHour`); without it such a
    /// change waits for iOS's opportunistic priority-5 delivery with the budget unused.
    case spareBudget = "spare-budget"
}

/// Which guards are on. Production code always runs with ``all``; only the simulator and tests turn some off.
public struct GuardSet: Hashable, Sendable {
    public private(set) var disabled: Set<Guard>

    public init(disabled: Set<Guard> = []) { self.disabled = disabled }

    /// Every guard on.
    public static let all = GuardSet()

    /// Every guard on except `guards`.
    public static func without(_ guards: Guard...) -> GuardSet { GuardSet(disabled: Set(guards)) }

    public func isOn(_ guard: Guard) -> Bool { !disabled.contains(`guard`) }
}
