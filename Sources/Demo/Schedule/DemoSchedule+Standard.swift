import FleetCore

extension DemoSchedule {
    /// The demo `lfg serve --demo` plays: a two-minute cycle on three hosts, repeated.
    ///
    /// First minute: the app is open when the first sessions start, so the app creates the card and the
    /// server adopts it (0-9 s); then the phone is locked and every change reaches the card by push: five
    /// sessions, two of them asking (amber, the oldest question with Allow / Deny, two rows and `3 More` at
    /// 20 s; each question also alerts the phone), both answered from the phone's alerts (24 s, 38 s: the
    /// waiting agent is released and the alert withdrawn), finishes, the end (46 s), a push-to-start for the
    /// next session (50 s), a question answered at the terminal (its alert withdrawn), and another end (62 s). Second
    /// minute: a session on `laptop` while `laptop` drops off the network (74-98 s): its session reads
    /// `unknown` and the card is left untouched rather than ended. Everything is archived before the
    /// next cycle. In every other cycle iOS wakes the app late after a push-to-start (the seed's idle
    /// phone): until then the server's updates go to the previous card's token and are lost.
    public static let standard = DemoSchedule(
        hosts: ["studio", "laptop", "ci"], heartbeatEvery: 3, hostTTL: 8, period: 120, lateWakeDelay: 25,
        script: [
            DemoStep(at: 0, .openApp),
            DemoStep(at: 2, .startSession("watcher", title: "Refactor the push watcher", host: "studio", cwd: "/src/lfg")),
            DemoStep(at: 5, .startSession("tests", title: "Write tests for the end gate", host: "studio", cwd: "/src/lfg")),
            DemoStep(at: 9, .leaveApp),
            DemoStep(at: 12, .startSession("deploy", title: "Deploy the staging build", host: "studio", cwd: "/src/site")),
            DemoStep(at: 13, .ask("deploy", Prompt(id: "deploy-ask", kind: .permission, text: "Allow ./deploy.sh staging?"))),
            DemoStep(at: 15, .startSession("readme", title: "Update the README", host: "laptop", cwd: "/src/docs")),
            DemoStep(at: 18, .startSession("cache", title: "Pick the cache store", host: "studio", cwd: "/src/api")),
            DemoStep(at: 19, .ask("cache", Prompt(
                id: "cache-ask", kind: .question, text: "Postgres or SQLite?", options: ["Postgres", "SQLite"]))),
            DemoStep(at: 24, .answerFromPhone("deploy", "Allow")),
            DemoStep(at: 30, .finish("watcher")),
            DemoStep(at: 34, .finish("tests")),
            DemoStep(at: 34, .finish("readme")),
            DemoStep(at: 38, .answerFromPhone("cache", "SQLite")),
            DemoStep(at: 42, .finish("deploy")),
            DemoStep(at: 46, .finish("cache")),
            DemoStep(at: 50, .startSession("toolchain", title: "Bump the Swift toolchain", host: "ci", cwd: "/src/infra")),
            DemoStep(at: 54, .ask("toolchain", Prompt(id: "toolchain-ask", kind: .question, text: "Pin 6.2 or move to 6.3?"))),
            DemoStep(at: 58, .answer("toolchain")),
            DemoStep(at: 62, .finish("toolchain")),
            DemoStep(at: 64, .archive("watcher")),
            DemoStep(at: 64, .archive("tests")),
            DemoStep(at: 64, .archive("deploy")),
            DemoStep(at: 64, .archive("readme")),
            DemoStep(at: 64, .archive("cache")),
            DemoStep(at: 68, .startSession("pool", title: "Review the APNs connection pool", host: "laptop", cwd: "/src/lfg")),
            DemoStep(at: 74, .hostGoesDown("laptop")),
            DemoStep(at: 98, .hostComesBack("laptop")),
            DemoStep(at: 104, .finish("pool")),
            DemoStep(at: 108, .archive("toolchain")),
            DemoStep(at: 116, .archive("pool")),
        ])
}
