import FleetCore
import HookIntake

/// Where the hook reports and with what credentials (CONTRACT section 4).
///
/// Read from the process environment, then `$LFG_HOME/.env` (the environment wins).
public struct HookConfiguration: Hashable, Sendable {
    /// The control plane's default address.
    public static let defaultURL = "http://127.0.0.1:\(DefaultPort.server)"

    /// `$LFG_HOME` (default `~/.lfg`).
    public var home: String
    /// `$LFG_URL` without a trailing slash.
    public var url: String
    /// The bearer token: `LFG_AUTH_TOKEN` (environment, then `$LFG_HOME/.env`), else
    /// `$LFG_HOME/auth-token`; nil when none exists.
    public var token: String?
    /// Where ``token`` came from, for messages about it (never the token itself).
    public var tokenSource: String
    /// `LFG_HOST`: the host name the reports carry (an extension; default: this machine's host name).
    public var host: HostID
    /// `LFG_HOOK_BUDGET_MS`: the hard bound of one hook call, in seconds (an extension; default
    /// ``HookRunner/timeBudget``, accepted from 0.05 to 10 s). Tests on a loaded machine raise it.
    public var timeBudget: Double
    /// `LFG_ANSWER_POLICY` and `LFG_ANSWER_WAIT_S`: when and how long to wait for the phone's answer.
    public var answering = AnswerSettings()
    /// What was wrong with those two settings (their defaults were used instead).
    public var answeringProblems: [String] = []

    public init(
        home: String, url: String = defaultURL, token: String? = nil, tokenSource: String = "no token",
        host: HostID = .local, timeBudget: Double = HookRunner.timeBudget
    ) {
        self.home = home
        self.url = url
        self.token = token
        self.tokenSource = tokenSource
        self.host = host
        self.timeBudget = timeBudget
    }

    /// How long one request may take: most of the budget, leaving time to spool what is left.
    public var requestTimeout: Double { timeBudget * SpoolDrainer.requestTimeout / HookRunner.timeBudget }

    /// Resolves the configuration from `environment`, reading files through `readFile` (path -> text);
    /// `hostName` is this machine's name (the default host).
    public static func resolve(
        environment: [String: String], hostName: String? = nil, readFile: (String) -> String?
    ) -> HookConfiguration {
        let settings = HookSettings(environment: environment, readFile: readFile)
        let home = settings.home
        let dotEnv = settings.dotEnv
        let setting = settings.value
        var url = setting("LFG_URL") ?? defaultURL
        while url.hasSuffix("/") { url.removeLast() }
        let budget = setting("LFG_HOOK_BUDGET_MS").flatMap(Double.init).map { min(max($0, 50), 10_000) / 1000 }
        var configuration = HookConfiguration(
            home: home, url: url, host: settings.host(hostName: hostName),
            timeBudget: budget ?? HookRunner.timeBudget)
        (configuration.answering, configuration.answeringProblems) = AnswerSettings.resolve(setting)
        if let token = environment["LFG_AUTH_TOKEN"].nonEmpty {
            (configuration.token, configuration.tokenSource) = (token, "LFG_AUTH_TOKEN in the environment")
        } else if let token = dotEnv["LFG_AUTH_TOKEN"].nonEmpty {
            (configuration.token, configuration.tokenSource) = (token, "LFG_AUTH_TOKEN in \(home)/.env")
        } else if let token = readFile(home + "/auth-token").map({ $0.trimmingWhitespace() }).nonEmpty {
            (configuration.token, configuration.tokenSource) = (token, "\(home)/auth-token")
        }
        return configuration
    }

    /// The token as a message may show it: its first 4 characters at most (never more than half of
    /// it), and where it came from.
    public var tokenDescription: String {
        guard let token else { return "no token (set LFG_AUTH_TOKEN or write \(home)/auth-token)" }
        return "token \(token.prefix(min(4, token.count / 2)))… from \(tokenSource)"
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
