import FleetCore

extension DiagnosisReport {
    /// The report for people: one block per device, each line answering one question.
    public func text(source: String) -> String {
        var out: [String] = []
        out.append("Decision log \(source): \(lines) lines, \(entries) entries" + skippedText)
        if let firstTs, let lastTs {
            out.append("From \(UTCTime.format(firstTs)) to \(UTCTime.format(lastTs)) (\(DurationText.format(lastTs - firstTs)))")
        }
        if devices.isEmpty { out.append("No device entries: nothing to diagnose.") }
        for device in devices { out.append(contentsOf: device.textLines) }
        return out.joined(separator: "\n") + "\n"
    }

    private var skippedText: String {
        guard skippedCount > 0 else { return "" }
        let named = skipped.prefix(5).map { "line \($0.line) \($0.reason)" }.joined(separator: ", ")
        return "; skipped \(skippedCount) (\(named)\(skippedCount > 5 ? ", ..." : ""))"
    }
}

extension DeviceDiagnosis {
    var textLines: [String] {
        var out = ["", "Device \(deviceId)"]
        out.append(
            "  Starts: \(starts.total): \(starts.adopted) adopted within 90 s (if stale: delivery or content), "
                + "\(starts.adoptedLate) adopted late and \(starts.notAdopted) never adopted (idle-phone gap), "
                + "\(starts.notDelivered) not delivered, "
                + "\(starts.undetermined) undetermined")
        if starts.omitted > 0 { out.append("    (\(starts.omitted) earlier starts counted, not listed)") }
        for start in starts.listed { out.append("    " + start.textLine) }
        let statuses = sends.byStatus.map { count in
            [count.status.map(String.init) ?? "no status", count.reason].compactMap { $0 }.joined(separator: " ")
                + ": \(count.count)"
        }
        var sendLine = "  Sends: \(sends.total)"
        if !statuses.isEmpty { sendLine += " (" + statuses.joined(separator: ", ") + ")" }
        if let mean = sends.meanMilliseconds, let max = sends.maxMilliseconds {
            sendLine += "; latency mean \(Int(mean.rounded())) ms, max \(Int(max.rounded())) ms"
        }
        out.append(sendLine)
        out.append(
            "  Pruned tokens: \(prunedTokens.count)"
                + (prunedTokens.tokens.isEmpty ? "" : " (" + prunedTokens.tokens.joined(separator: ", ") + ")"))
        out.append("  Start vetoes: \(startVetoes)")
        var ended = "  Client-ended: \(clientEnded.total)"
        if let peakHour = clientEnded.peakHour {
            ended += "; peak \(clientEnded.peakPerHour)/hour (hour from \(UTCTime.format(peakHour))), "
                + "\(clientEnded.perHour.count) hours with any"
        }
        out.append(ended)
        var short = "  Shortfalls: \(shortfalls.partial) partial, \(shortfalls.noneAccepted) \(DecisionEvent.noneAccepted.rawValue), "
            + "\(shortfalls.noTokens) \(DecisionEvent.noTokens.rawValue); \(shortfalls.runs) runs"
        if let run = shortfalls.longestRun {
            short += "; longest \(run.shortfalls) in a row over \(DurationText.format(run.to - run.from)) from "
                + UTCTime.format(run.from) + (run.isOpen ? " (still open at the end of the log)" : "")
        }
        out.append(short)
        if let frozen = longestFrozen {
            let what = switch frozen.kind {
            case .unadoptedStart: "a started card was not adopted"
            case .deadToken: "updates were accepted by token \(frozen.token ?? "?") that later proved dead"
            }
            out.append(
                "  Longest possibly-frozen stretch: \(DurationText.format(frozen.seconds)) from "
                    + "\(UTCTime.format(frozen.from)) to \(UTCTime.format(frozen.to)): \(what); ended by \(frozen.endedBy)")
        } else {
            out.append("  Longest possibly-frozen stretch: none")
        }
        return out
    }
}

extension StartRecord {
    var textLine: String {
        let tokenText = tokens.map { ", \($0) token\($0 == 1 ? "" : "s")" } ?? ""
        let verdict = switch outcome {
        case .adopted: "adopted after \(DurationText.format(adoptedAfterSeconds ?? 0)) -> if stale: delivery or content"
        case .adoptedLate:
            "adopted late, after \(DurationText.format(adoptedAfterSeconds ?? 0)) -> idle-phone gap until then"
        case .notAdopted: "never adopted (missing): its updates went to another card's token -> idle-phone gap"
        case .notDelivered: "no token accepted -> no card appeared"
        case .undetermined: "log ends before 90 s passed"
        }
        return "\(UTCTime.format(ts)) start\(tokenText): \(verdict)"
    }
}
