/// How a session shows on every surface: one ladder, used by the list, the card and the server.
public enum DisplayState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Its host is known down: the count is unknown, not zero.
    case unknown
    /// Waiting on a person: a question, permission, plan approval or sign-in.
    case needsInput
    /// Paused: neither progressing nor asking, so not a card row.
    case blocked
    /// Mid-turn by its last report, but silent past ``SilenceRule/noNewsAfter`` while its host is up:
    /// probably still working, unconfirmed. A working row whose line says "no news"; never a zero.
    case noNews
    /// Mid-turn.
    case working
    /// Nothing happening.
    case idle

    /// The first rung that applies, or nil for an archived session (shown nowhere, counted nowhere).
    ///
    /// Order matters: archived, host down, prompt, blocked, busy (quiet: no news), idle. A down host's
    /// stale `busy: true` must not read as "Working" forever, nor a silent one as confidently working.
    /// Only a busy session can be "no news": waiting on a person and idle are silent by nature.
    public static func resolve(_ report: SessionReport, isHostDown: Bool, isQuiet: Bool = false) -> DisplayState? {
        if report.archived { return nil }
        if isHostDown { return .unknown }
        if report.prompt != nil { return .needsInput }
        if report.blocked { return .blocked }
        if report.busy { return isQuiet ? .noNews : .working }
        return .idle
    }

    /// The card row state of an active session, or nil when the session is not a card row.
    public var rowState: RowState? {
        switch self {
        case .working, .noNews: .working
        case .needsInput: .needsInput
        case .unknown, .blocked, .idle: nil
        }
    }

    /// Only working and needs-input sessions are active.
    public var isActive: Bool { rowState != nil }
}
