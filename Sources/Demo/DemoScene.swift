import FleetCore

/// What the demo's simulated hosts and person do, second by second: a 90-second cycle that repeats,
/// so a newcomer sees a card started, updated (rows, counts, a prompt, a host going down) and ended
/// within the first minute. Pure data; `DemoRunner` carries it out against the real API.
public enum DemoScene {
    /// Seconds per cycle.
    public static let cycleSeconds = 90.0
    /// The hosts' heartbeat TTL; a host that stops beating reads down this long after its last one.
    public static let heartbeatTTL = 10.0

    /// One thing that happens at a moment of a cycle.
    public struct Step: Equatable, Sendable {
        /// Seconds into the cycle.
        public var at: Double
        public var action: Action
    }

    public enum Action: Equatable, Sendable {
        /// A host reports a session (`PUT /api/sessions/{sid}`).
        case report(sid: String, SessionReport)
        /// A finished session leaves (`DELETE /api/sessions/{sid}`).
        case remove(sid: String)
        /// A host stops (false) or resumes (true) its heartbeats.
        case hostReachable(String, Bool)
        /// The person swipes the card away; the app reports `/ended`.
        case personEndsCard
    }

    /// How the phone answers a push-to-start in `cycle`: seconds until the app registers the new card's
    /// update token. Every other cycle the phone is idle and the app wakes late (the seed's idle-phone gap).
    public static func adoptionDelay(cycle: Int) -> Double { cycle % 2 == 1 ? 25 : 2 }

    /// The hosts the demo runs.
    public static let hosts = ["studio", "laptop"]

    /// Every step of `cycle`, in time order. Session ids carry the cycle number, so each cycle's
    /// sessions are new to the server (a start veto from an earlier cycle does not hold them back).
    public static func steps(cycle: Int) -> [Step] {
        func sid(_ name: String) -> String { "\(name)-\(cycle)" }
        func working(_ title: String, on host: String = "studio", in cwd: String, step: String? = nil) -> SessionReport {
            SessionReport(title: title, host: HostID(host), cwd: cwd, busy: true, step: step)
        }
        func asking(_ title: String, _ kind: Prompt.Kind, _ text: String, in cwd: String) -> SessionReport {
            SessionReport(title: title, host: "studio", cwd: cwd, prompt: Prompt(kind: kind, text: text))
        }
        func idle(_ title: String, on host: String = "studio", in cwd: String) -> SessionReport {
            SessionReport(title: title, host: HostID(host), cwd: cwd)
        }
        var steps: [Step] = [
            Step(at: 1, action: .report(sid: sid("watcher"), working("Refactor the push watcher", in: "~/src/lfg", step: "Edit Watcher.swift"))),
            Step(at: 5, action: .report(sid: sid("tests"), working("Write tests for the end gate", in: "~/src/lfg", step: "Bash: swift test"))),
            Step(at: 9, action: .report(sid: sid("deploy"), asking("Deploy the staging build", .permission, "Allow ./deploy.sh staging?", in: "~/src/site"))),
            Step(at: 14, action: .report(sid: sid("readme"), working("Update the README", on: "laptop", in: "~/src/docs", step: "Write README.md"))),
            Step(at: 18, action: .report(sid: sid("cache"), asking("Pick the cache store", .question, "Postgres or SQLite?", in: "~/src/api"))),
            Step(at: 24, action: .report(sid: sid("deploy"), working("Deploy the staging build", in: "~/src/site", step: "Bash: ./deploy.sh"))),
            Step(at: 30, action: .report(sid: sid("watcher"), idle("Refactor the push watcher", in: "~/src/lfg"))),
            Step(at: 34, action: .report(sid: sid("profile"), working("Profile lfg diagnose", in: "~/src/lfg", step: "Bash: perf record"))),
            Step(at: 38, action: .hostReachable("laptop", false)),
            Step(at: 56, action: .hostReachable("laptop", true)),
            Step(at: 60, action: .report(sid: sid("cache"), working("Pick the cache store", in: "~/src/api", step: "Edit Cache.swift"))),
            Step(at: 66, action: .report(sid: sid("tests"), idle("Write tests for the end gate", in: "~/src/lfg"))),
            Step(at: 66, action: .report(sid: sid("readme"), idle("Update the README", on: "laptop", in: "~/src/docs"))),
            Step(at: 70, action: .report(sid: sid("deploy"), idle("Deploy the staging build", in: "~/src/site"))),
            Step(at: 72, action: .report(sid: sid("profile"), idle("Profile lfg diagnose", in: "~/src/lfg"))),
            Step(at: 76, action: .report(sid: sid("cache"), idle("Pick the cache store", in: "~/src/api"))),
        ]
        // Every third cycle the person swipes the card away mid-cycle: the start veto holds until a new session.
        if cycle % 3 == 2 { steps.append(Step(at: 44, action: .personEndsCard)) }
        steps += ["watcher", "tests", "deploy", "readme", "cache", "profile"].map {
            Step(at: 86, action: .remove(sid: sid($0)))
        }
        return steps.sorted { $0.at < $1.at }
    }
}
