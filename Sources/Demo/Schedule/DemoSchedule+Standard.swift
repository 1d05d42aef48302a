import FleetCore

extension DemoSchedule {
    /// The demo `lfg serve --demo` plays: a two-minute cycle on three hosts, repeated.
    ///
    /// First minute: the app is open when the first session starts, so the app creates the card and the
    /// server adopts it (0-10 s); then the phone is locked and every change reaches the card by push:
    /// a second row, a permission prompt (amber), its answer, finishes, the end (36 s), a push-to-start
    /// for the next session (42 s), a question, and another end (60 s). Second minute: a session on
    /// `laptop` while `laptop` drops off the network (72-96 s): its session reads `unknown` and the card
    /// is left untouched rather than ended. Everything is archived before the next cycle.
    public static let standard = DemoSchedule(
        hosts: ["studio", "laptop", "ci"], heartbeatEvery: 3, hostTTL: 8, period: 120,
        script: [
            DemoStep(at: 0, .openApp),
            DemoStep(at: 2, .startSession("watcher", title: "Fix the flaky watcher test", host: "studio", cwd: "/src/lfg")),
            DemoStep(at: 6, .startSession("dashboard", title: "Port the dashboard to SSE", host: "laptop", cwd: "/src/web")),
            DemoStep(at: 10, .leaveApp),
            DemoStep(at: 16, .ask("watcher", Prompt(kind: .permission, text: "Allow `swift test --parallel`?"))),
            DemoStep(at: 24, .answer("watcher")),
            DemoStep(at: 30, .finish("dashboard")),
            DemoStep(at: 36, .finish("watcher")),
            DemoStep(at: 42, .startSession("toolchain", title: "Bump the Swift toolchain", host: "ci", cwd: "/src/infra")),
            DemoStep(at: 48, .ask("toolchain", Prompt(kind: .question, text: "Pin 6.2 or move to 6.3?"))),
            DemoStep(at: 54, .answer("toolchain")),
            DemoStep(at: 60, .finish("toolchain")),
            DemoStep(at: 62, .archive("watcher")),
            DemoStep(at: 62, .archive("dashboard")),
            DemoStep(at: 66, .startSession("pool", title: "Review the APNs connection pool", host: "laptop", cwd: "/src/lfg")),
            DemoStep(at: 72, .hostGoesDown("laptop")),
            DemoStep(at: 96, .hostComesBack("laptop")),
            DemoStep(at: 102, .finish("pool")),
            DemoStep(at: 106, .archive("toolchain")),
            DemoStep(at: 114, .archive("pool")),
        ])
}
