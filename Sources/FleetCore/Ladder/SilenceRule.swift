/// When a busy session that has said nothing reads as "no news" instead of confidently working (seed 003).
///
/// A session reports on every turn boundary and every tool call (the hook's PreToolUse changes its step),
/// so a working session that is silent for long has either hung, lost its reports, or runs one long tool
/// call. None of those is "working" we can vouch for, and the last step shown may be old: the card says
/// so. It never ends or zeroes a card: the session may well still be working, so it stays a counted row
/// (its `since` kept) and only its line changes. Defined here once; the server, the app and the tests read it.
public struct SilenceRule: Hashable, Sendable {
    /// 10 minutes: longer than any single tool call Claude Code lets run in the foreground (its Bash tool
    /// stops a command at 2 minutes by default and 10 at most; longer work goes to the background and
    /// returns at once), so a session quiet this long is past anything a normal turn does between two
    /// reports. Codex reports the same per-tool-call cadence (PreToolUse/PostToolUse). The reasoning and
    /// the false-alarm cases are in docs/silence-rule.md.
    public static let defaultSeconds: Double = 10 * 60

    /// The production rule.
    public static let standard = SilenceRule(noNewsAfter: defaultSeconds)

    /// Seconds without a report after which a busy session reads as no news (`LFG_NO_NEWS_AFTER_S`).
    public var noNewsAfter: Double

    public init(noNewsAfter: Double) { self.noNewsAfter = noNewsAfter }

    /// Whether a session last heard from at `heardAt` is quiet at `now`. Never heard (nil): not quiet, so
    /// writers that do not track reception (a cache, an old server) fall back to the report alone.
    public func isQuiet(heardAt: UnixTime?, now: UnixTime) -> Bool {
        guard let heardAt else { return false }
        return now - heardAt >= noNewsAfter
    }

    /// When a session heard from at `heardAt` turns quiet: the time a writer must look again.
    public func quietAt(heardAt: UnixTime) -> UnixTime { heardAt + noNewsAfter }
}
