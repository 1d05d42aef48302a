/// The human report: one table, the idle-phone hole spelled out, and how correctness is judged.
extension SimulationReport {
    public var text: String {
        var lines: [String] = []
        let off = without.isEmpty ? "none (every guard on)" : without.map(\.rawValue).joined(separator: ", ")
        lines.append("lfg simulate: seed \(seed); iOS \(ios.rawValue); guards off: \(off)")
        lines.append("")
        let header = ["scenario", "sim time", "correct", "honest", "lying s", "p50 s", "p99 s", "multi s", "max",
                      "frozen s", "starts", "ended", "loops", "pushes", "push/chg"]
        var rows: [[String]] = [header]
        for result in scenarios {
            let m = result.metrics
            let perChange = result.details.truthChanges > 0
                ? Self.fixed(Double(m.pushes) / Double(result.details.truthChanges), 1) : "-"
            rows.append([
                result.name, Self.duration(m.simulatedSeconds), Self.fixed(m.correctFraction * 100, 1) + "%",
                Self.fixed(m.honestFraction * 100, 1) + "%", Self.fixed(m.lyingSeconds, 0),
                Self.fixed(m.timeToCorrectP50, 1), Self.fixed(m.timeToCorrectP99, 1), Self.fixed(m.multiCardSeconds, 0),
                String(m.maxVisibleCards), Self.fixed(m.frozenSeconds, 0), String(m.starts), String(m.clientEnded),
                String(m.startEndLoops), String(m.pushes), perChange,
            ])
        }
        lines += Self.table(rows)
        lines.append("")
        for result in scenarios {
            lines.append("\(result.name): \(result.summary)")
            lines.append("    good: \(result.good)")
            lines.append("    known holes: \(result.holes)")
            var notes: [String] = []
            let d = result.details
            let t = d.timeliness
            if t.needsYouTransitions > 0 {
                notes.append("needs-you on the wire later than 1 s: \(t.needsYouLate) of \(t.needsYouTransitions) "
                    + "(worst \(Self.fixed(t.needsYouWorstSeconds, 1)) s)")
            }
            if t.immediatePushesWorstHour > 0 { notes.append("priority-10 pushes in the worst hour \(t.immediatePushesWorstHour)") }
            if !t.checkpoints.isEmpty { notes.append("checkpoints " + t.checkpoints.joined(separator: " ")) }
            if t.longestCardlessActiveSeconds > 10 {
                notes.append("longest stretch with no card while active \(Self.fixed(t.longestCardlessActiveSeconds, 0)) s")
            }
            if d.overheightSeconds > 0 { notes.append("overheight card (>3 rows, header clipped) \(Self.fixed(d.overheightSeconds, 0)) s") }
            if d.untrustworthySeconds > 0 { notes.append("count unknown (host down) \(Self.fixed(d.untrustworthySeconds, 0)) s") }
            if d.serverStarts > 0 { notes.append("server push-starts delivered \(d.serverStarts)") }
            if d.pushStartedCardsKilled > 0 { notes.append("push-started cards gone within 30 s \(d.pushStartedCardsKilled)") }
            let started = d.pushStartsWithTokenBack + d.pushStartsWithoutTokenBack
            if started > 0 {
                notes.append("push-started cards with no token back within 90 s: \(d.pushStartsWithoutTokenBack) of \(started)")
            }
            if !notes.isEmpty { lines.append("    " + notes.joined(separator: "; ")) }
        }
        if let idle = scenarios.first(where: { $0.name == "idle-phone" }) {
            lines.append("")
            lines.append(Self.idlePhoneNote(idle))
        }
        lines.append("")
        lines.append("""
            correct: every phone shows exactly one card whose counts, rows (sid, title, state) and "more" equal the \
            truth, each row's since within 60 s of the real change, or no card when nothing is active; while a host \
            is down (count unknown) at most one card, and one if one was due. honest: every visible card is correct \
            or marked stale by iOS, or there is none while nothing is active. lying: a visible card shows wrong \
            content with no stale mark. frozen: a card visible while the app \
            is not running and no pushing server holds its update token. loops: an /ended against sessions the \
            server still counts, within 90 s of a push-start (phone ends, server restarts, phone ends again).
            """)
        return lines.joined(separator: "\n")
    }

    static func idlePhoneNote(_ idle: ScenarioResult) -> String {
        let m = idle.metrics
        let d = idle.details
        let started = d.pushStartsWithTokenBack + d.pushStartsWithoutTokenBack
        return """
            The idle-phone hole (token mode, the app never opened for \(duration(m.simulatedSeconds))):
                correct \(fixed(m.correctFraction * 100, 1))% of the time; card frozen (unaddressable) \
            \(fixed(m.frozenSeconds / 60, 1)) min = \(fixed(m.frozenSeconds / max(m.simulatedSeconds, 1) * 100, 1))%;
                \(d.pushStartsWithoutTokenBack) of \(started) push-started cards got no update token back within 90 s;
                time to a correct card p50 \(fixed(m.timeToCorrectP50, 1)) s, p99 \(fixed(m.timeToCorrectP99, 1)) s; \
            \(m.pushes) pushes for \(d.truthChanges) changes.
                Broadcast channels (one channel per env, no per-card token) are judged against these figures.
            """
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let whole = Int(rounded.rounded(.towardZero))
        guard digits > 0 else { return String(Int(rounded)) }
        let fraction = Int((abs(rounded - Double(whole)) * scale).rounded())
        let sign = rounded < 0 && whole == 0 ? "-" : ""
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
    }

    static func duration(_ seconds: Double) -> String {
        if seconds >= 3600 { return fixed(seconds / 3600, 1) + " h" }
        if seconds >= 60 { return fixed(seconds / 60, 1) + " min" }
        return fixed(seconds, 0) + " s"
    }

    /// Rows as aligned columns: text columns (`leftAligned`) padded right, figures padded left.
    static func table(_ rows: [[String]], leftAligned: Set<Int> = [0]) -> [String] {
        guard let first = rows.first else { return [] }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingSuffixSpaces
        }
    }
}

extension String {
    /// The text without trailing spaces (a table's last column is padded).
    fileprivate var trimmingSuffixSpaces: String {
        var text = Substring(self)
        while text.hasSuffix(" ") { text = text.dropLast() }
        return String(text)
    }
}
