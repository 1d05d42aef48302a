/// When `lfg hook` holds the agent for the phone's answer (`LFG_ANSWER_POLICY`, contract 8.2).
///
/// The hook must never trap a person who sits at the terminal, so the default waits only while the
/// host's keyboard and mouse have been idle for a while, and an unknown idle time counts as active.
public enum AnswerPolicy: Hashable, Sendable, CustomStringConvertible {
    /// Always wait (up to the wait limit).
    case always
    /// Never wait: the terminal dialog alone answers.
    case never
    /// Wait only while keyboard and mouse have been idle at least this many seconds.
    case idle(seconds: Double)

    /// `idle:60`: a minute without a keystroke or a mouse move reads as "looked away".
    public static let `default` = AnswerPolicy.idle(seconds: 60)

    /// Reads `always`, `never` or `idle:N` (N whole or fractional seconds, 0 or more); nil otherwise.
    public init?(text: String) {
        let trimmed = text.trimmingWhitespace().lowercased()
        switch trimmed {
        case "always": self = .always
        case "never": self = .never
        default:
            guard trimmed.hasPrefix("idle:"), let seconds = Double(trimmed.dropFirst("idle:".count)), seconds >= 0,
                seconds.isFinite
            else { return nil }
            self = .idle(seconds: seconds)
        }
    }

    /// Whether to wait, given how long the host's keyboard and mouse have been idle (nil: unknown,
    /// which counts as active: the hook never waits on a guess).
    public func allowsWaiting(idleSeconds: Double?) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .idle(let threshold): idleSeconds.map { $0 >= threshold } ?? false
        }
    }

    public var description: String {
        switch self {
        case .always: "always"
        case .never: "never"
        case .idle(let seconds): "idle:" + (seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds))
        }
    }
}

/// How the hook waits for the phone: the policy and the longest wait (`LFG_ANSWER_WAIT_S`).
public struct AnswerSettings: Hashable, Sendable {
    /// The default longest wait in seconds: 5 minutes, as long as a person steps away for a coffee.
    public static let defaultWaitSeconds = 300.0
    /// The longest wait accepted, in seconds: under Claude Code's 600 s default hook timeout.
    public static let maximumWaitSeconds = 540.0
    /// Seconds a hook's `timeout` (written by `lfg hooks install`) stays above the wait, so Claude Code
    /// never kills a hook that is about to print its decision.
    public static let timeoutMargin = 30.0

    public var policy: AnswerPolicy
    /// The longest wait, in seconds.
    public var waitSeconds: Double

    public init(policy: AnswerPolicy = .default, waitSeconds: Double = defaultWaitSeconds) {
        self.policy = policy
        self.waitSeconds = min(max(waitSeconds, 0), Self.maximumWaitSeconds)
    }

    /// The hook `timeout` (whole seconds) that keeps Claude Code from cutting this wait short.
    public var hookTimeoutSeconds: Int { Int((waitSeconds + Self.timeoutMargin).rounded(.up)) }

    /// Reads `LFG_ANSWER_POLICY` and `LFG_ANSWER_WAIT_S` through `setting`; a value that does not parse
    /// is reported in `problems` and its default used.
    public static func resolve(_ setting: (String) -> String?) -> (settings: AnswerSettings, problems: [String]) {
        var problems: [String] = []
        var policy = AnswerPolicy.default
        if let text = setting("LFG_ANSWER_POLICY") {
            if let parsed = AnswerPolicy(text: text) { policy = parsed } else {
                problems.append("LFG_ANSWER_POLICY '\(text)' is not always, never or idle:N; using \(policy)")
            }
        }
        var wait = defaultWaitSeconds
        if let text = setting("LFG_ANSWER_WAIT_S") {
            if let seconds = Double(text), seconds >= 0, seconds <= maximumWaitSeconds { wait = seconds } else {
                problems.append(
                    "LFG_ANSWER_WAIT_S '\(text)' is not a number of seconds from 0 to \(Int(maximumWaitSeconds)); using \(Int(wait))")
            }
        }
        return (AnswerSettings(policy: policy, waitSeconds: wait), problems)
    }
}
