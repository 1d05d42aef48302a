/// The files `lfg host install` writes so the system keeps `lfg host` running: a systemd user unit on
/// Linux, a launchd agent on macOS. Pure text, so their content is tested here; the install command
/// writes them and asks the service manager to start them.
public struct ServiceFiles: Hashable, Sendable {
    /// The systemd unit's and launchd label's name.
    public static let systemdUnitName = "lfg-host.service"
    public static let launchdLabel = "dev.lfg.host"

    /// The absolute path of the `lfg` executable the service runs (`lfg host`).
    public var executable: String
    /// `$LFG_HOME` the service runs with (so it finds the same inbox and `.env` as the hooks).
    public var home: String
    /// The user's home folder (launchd's log files go under it).
    public var userHome: String

    public init(executable: String, home: String, userHome: String) {
        self.executable = executable
        self.home = home
        self.userHome = userHome
    }

    /// Where the systemd user unit goes: `~/.config/systemd/user/lfg-host.service`.
    public var systemdUnitPath: String { "\(userHome)/.config/systemd/user/\(Self.systemdUnitName)" }
    /// Where the launchd agent goes: `~/Library/LaunchAgents/dev.lfg.host.plist`.
    public var launchdPlistPath: String { "\(userHome)/Library/LaunchAgents/\(Self.launchdLabel).plist" }
    /// launchd's log of the agent's stderr.
    public var launchdLogPath: String { "\(home)/host.log" }

    /// The systemd user unit: restarted whenever it stops, started with the user's session.
    public var systemdUnit: String {
        """
        [Unit]
        Description=LFG host agent: heartbeats, hook delivery and agent process watch
        After=network-online.target

        [Service]
        Type=simple
        ExecStart=\(Self.systemdQuoted(executable)) host
        Environment=\(Self.systemdQuoted("LFG_HOME=\(home)"))
        Restart=always
        RestartSec=5
        # Idle it sleeps in one poll; nothing here needs more than a nice, low-priority process.
        Nice=10

        [Install]
        WantedBy=default.target

        """
    }

    /// The launchd agent: started at login, kept alive, stderr to `$LFG_HOME/host.log`.
    public var launchdPlist: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>Label</key>
            <string>\(Self.launchdLabel)</string>
            <key>ProgramArguments</key>
            <array>
                <string>\(Self.xmlEscaped(executable))</string>
                <string>host</string>
            </array>
            <key>EnvironmentVariables</key>
            <dict>
                <key>LFG_HOME</key>
                <string>\(Self.xmlEscaped(home))</string>
            </dict>
            <key>RunAtLoad</key>
            <true/>
            <key>KeepAlive</key>
            <true/>
            <key>ProcessType</key>
            <string>Background</string>
            <key>StandardErrorPath</key>
            <string>\(Self.xmlEscaped(launchdLogPath))</string>
        </dict>
        </plist>

        """
    }

    /// A value for a systemd directive: quoted, with `\`, `"`, `%` and `$` escaped so a path with spaces
    /// or specifiers stays one literal argument.
    static func systemdQuoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "%": out += "%%"
            case "$": out += "$$"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
