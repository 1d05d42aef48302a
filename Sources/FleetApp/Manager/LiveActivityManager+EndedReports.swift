import FleetCore

/// The `/ended` report as a call the manager owes until a server answers it.
///
/// A dropped report left the server believing in a card that is gone: it kept pushing to the dead token
/// (APNs answers 200) and never push-started a card for new sessions. The server takes the report
/// idempotently, so a failed one is retried with the registrations' backoff, and dropped only when a newer
/// card's update token goes to that server (see ``LiveActivityManager/offer(_:owner:)``).
extension LiveActivityManager {
    /// Owes each of `servers` a report: sends it now, unless one is already in flight (its answer settles both).
    mutating func owe(servers: [String]) -> [Effect] {
        var effects: [Effect] = []
        for server in servers where endedReports[server]?.isInFlight != true {
            endedReports[server] = Attempt(failures: endedReports[server]?.failures ?? 0, isInFlight: true)
            effects.append(.reportEnded(server: server))
        }
        return effects
    }

    mutating func endedReportAnswered(server: String, succeeded: Bool, now: UnixTime) {
        // An answer to a report no longer owed (superseded by a newer card) changes nothing.
        guard var attempt = endedReports[server], attempt.isInFlight else { return }
        if succeeded {
            endedReports[server] = nil
            return
        }
        attempt.failed(at: now, backoff: backoff)
        endedReports[server] = attempt
    }

    mutating func retryEndedReports(dueBy now: UnixTime) -> [Effect] {
        var effects: [Effect] = []
        for server in endedReports.keys.sorted() {
            guard var attempt = endedReports[server], attempt.startIfDue(by: now) else { continue }
            endedReports[server] = attempt
            effects.append(.reportEnded(server: server))
        }
        return effects
    }
}

extension LiveActivityManager.Attempt {
    /// The call failed at `now`: wait the backoff for this many failures before the next try.
    mutating func failed(at now: UnixTime, backoff: RegistrationBackoff) {
        isInFlight = false
        failures += 1
        retryAt = now + backoff.delay(afterFailures: failures)
    }

    /// Starts the retry if it is due by `now`; returns whether it did.
    mutating func startIfDue(by now: UnixTime) -> Bool {
        guard !isInFlight, let due = retryAt, due <= now else { return false }
        retryAt = nil
        isInFlight = true
        return true
    }
}
