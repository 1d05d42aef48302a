import FleetCore

/// What a turn that ended on an API error (`StopFailure`) asks of the person, by its `error` value.
///
/// A failed turn is never plain `idle`: Claude will not go on by itself. A limit that lifts by itself
/// reads as paused (`blocked`); a failure only the person can fix asks for them (`needsInput`).
enum TurnFailure: Hashable, Sendable {
    /// Paused until the limit lifts (Claude Code may resume on its own): `blocked`, step names it.
    case paused
    /// The person must sign in or fix their account: a `signin` prompt.
    case needsSignIn
    /// The person must change something and retry (model, request, length): a `question` prompt.
    case needsRetry

    /// Errors that pass by themselves.
    static let transient: Set<String> = ["rate_limit", "overloaded", "server_error"]
    /// Errors about the person's credentials or account.
    static let account: Set<String> = [
        "authentication_failed", "oauth_org_not_allowed", "account_on_hold", "billing_error", "cloud_credential_error",
    ]

    init(error: String?) {
        let error = error ?? "unknown"
        if Self.transient.contains(error) {
            self = .paused
        } else if Self.account.contains(error) {
            self = .needsSignIn
        } else {
            self = .needsRetry
        }
    }

    /// The error as words: `rate_limit` -> `rate limit`.
    static func words(_ error: String?) -> String {
        String((error ?? "error").map { $0 == "_" ? " " : $0 })
    }

    /// Applies the failure to an ended turn.
    static func apply(_ error: String?, to session: inout HookSessionState) {
        let words = words(error)
        session.report.step = "Stopped: " + words
        switch TurnFailure(error: error) {
        case .paused: session.report.blocked = true
        case .needsSignIn: session.setPrompt(Prompt(kind: .signin, text: "Claude Code stopped: \(words); sign in again"), raisedBy: nil)
        case .needsRetry: session.setPrompt(Prompt(kind: .question, text: "Claude Code stopped: \(words); retry?"), raisedBy: nil)
        }
    }
}
