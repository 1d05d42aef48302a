import HostAgent
import Testing

@Suite("lfg host install: the service files")
struct ServiceFilesTests {
    static let files = ServiceFiles(executable: "/opt/lfg dir/lfg", home: "/home/ann/.lfg", userHome: "/home/ann")

    @Test("The systemd user unit runs `lfg host` with LFG_HOME, restarts it and starts with the session")
    func systemdUnit() {
        let unit = Self.files.systemdUnit
        #expect(Self.files.systemdUnitPath == "/home/ann/.config/systemd/user/lfg-host.service")
        #expect(unit.contains("[Service]\nType=simple\nExecStart=\"/opt/lfg dir/lfg\" host\n"))
        #expect(unit.contains("Environment=\"LFG_HOME=/home/ann/.lfg\"\n"))
        #expect(unit.contains("Restart=always\n"))
        #expect(unit.contains("[Install]\nWantedBy=default.target\n"))
    }

    @Test("systemd specifiers and quotes in a path stay literal")
    func systemdEscaping() {
        let unit = ServiceFiles(executable: "/x/100%\"$lfg", home: "/h", userHome: "/h").systemdUnit
        #expect(unit.contains(#"ExecStart="/x/100%%\"$$lfg" host"#))
    }

    @Test("The launchd agent runs `lfg host` at load, keeps it alive and logs to $LFG_HOME/host.log")
    func launchdPlist() {
        let plist = ServiceFiles(executable: "/usr/local/bin/lfg", home: "/Users/ann/.lfg & co", userHome: "/Users/ann").launchdPlist
        #expect(plist.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"))
        #expect(plist.contains("<key>Label</key>\n    <string>dev.lfg.host</string>"))
        #expect(plist.contains("<array>\n        <string>/usr/local/bin/lfg</string>\n        <string>host</string>\n    </array>"))
        #expect(plist.contains("<key>LFG_HOME</key>\n        <string>/Users/ann/.lfg &amp; co</string>"))
        #expect(plist.contains("<key>RunAtLoad</key>\n    <true/>"))
        #expect(plist.contains("<key>KeepAlive</key>\n    <true/>"))
        #expect(plist.contains("<string>/Users/ann/.lfg &amp; co/host.log</string>"))
        #expect(ServiceFiles(executable: "/l", home: "/h", userHome: "/Users/ann").launchdPlistPath
            == "/Users/ann/Library/LaunchAgents/dev.lfg.host.plist")
    }
}
