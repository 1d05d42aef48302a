import FleetCore

/// What `GET /metrics` counts (Prometheus text, ``ServiceMetrics/prometheusText(gauges:storeCommitSeconds:databaseRoundTrips:)``): pushes by APNs
/// status and reason, tick time, store commit time, lease changes. Counters only grow; a restart resets them.
struct ServiceMetrics {
    /// Token sends by `status` and `reason` (reason "" when APNs gave none; status 0 = no answer).
    var pushes: [PushOutcomeKey: Int] = [:]
    var tickSeconds = DurationSummary()

    struct PushOutcomeKey: Hashable, Comparable {
        var status: Int
        var reason: String

        static func < (left: Self, right: Self) -> Bool { (left.status, left.reason) < (right.status, right.reason) }
    }

    /// A Prometheus summary without quantiles: how many, and their sum in seconds.
    struct DurationSummary: Sendable {
        var count = 0
        var sum = 0.0

        mutating func record(_ duration: Duration) {
            count += 1
            sum += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    /// Counts every token answer of `answers`.
    mutating func countPushes(_ answers: [WatcherEvent]) {
        for case .pushAnswered(let receipt, _) in answers {
            for result in receipt.results {
                pushes[PushOutcomeKey(status: result.status, reason: result.reason ?? ""), default: 0] += 1
            }
        }
    }

    /// Values read at scrape time.
    struct Gauges {
        var devicesDriven: Int
        /// Device leases held (sharing a database; every device when alone), loaded or not yet, and lease
        /// moves so far (the instance's, ``InstanceLeases/counts``; none when alone).
        var leases: InstanceLeases.Counts
        var eventStreams: Int
        var longPolls: Int
        var isPushing: Bool
    }

    /// The Prometheus text exposition (format 0.0.4).
    /// - Parameter databaseRoundTrips: round trips to the database so far (PostgreSQL); nil leaves the family out.
    func prometheusText(gauges: Gauges, storeCommitSeconds: DurationSummary, databaseRoundTrips: Int? = nil) -> String {
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
            for sample in samples { lines.append("\(name)\(sample.labels) \(sample.value)") }
        }
        family(
            "lfg_pushes_total", "counter", "Token pushes answered, by APNs status and reason (status 0: no answer).",
            pushes.keys.sorted().map { key in
                ("{status=\"\(key.status)\",reason=\"\(Self.escaped(key.reason))\"}", "\(pushes[key]!)")
            })
        for (name, help, summary) in [
            ("lfg_tick_seconds", "Watcher tick time (deciding and committing; sends are not included).", tickSeconds),
            ("lfg_store_commit_seconds", "Store commit time.", storeCommitSeconds),
        ] {
            // The samples of a summary are `<name>_count` and `<name>_sum`.
            family(name, "summary", help, [("_count", "\(summary.count)"), ("_sum", "\(summary.sum)")])
        }
        family("lfg_devices_driven", "gauge", "Devices whose card this instance drives.", [("", "\(gauges.devicesDriven)")])
        family("lfg_device_leases_held", "gauge", "Device leases this instance holds.", [("", "\(gauges.leases.held)")])
        if let databaseRoundTrips {
            family(
                "lfg_database_round_trips_total", "counter",
                "Round trips to the database by this process (statements, prepares, BEGIN and COMMIT).",
                [("", "\(databaseRoundTrips)")])
        }
        family(
            "lfg_lease_changes_total", "counter", "Device leases gained, lost (expired or taken) and given up.",
            [("{change=\"gained\"}", "\(gauges.leases.gained)"), ("{change=\"lost\"}", "\(gauges.leases.lost)"),
             ("{change=\"shed\"}", "\(gauges.leases.shed)")])
        family("lfg_event_streams", "gauge", "Open GET /api/events streams.", [("", "\(gauges.eventStreams)")])
        family("lfg_long_polls", "gauge", "Waiting GET /api/questions/{id}/wait long polls.", [("", "\(gauges.longPolls)")])
        family("lfg_pushing", "gauge", "1 when the push gate is open and the leases are fresh.", [("", gauges.isPushing ? "1" : "0")])
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label value with `\`, `"` and newlines escaped as the text format requires.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
