import FleetCore

/// The dashboard's view of the decision-log schema, generated from `FleetCore.DecisionEvent`, so the
/// page's event list cannot drift from what the server writes.
///
/// The script gets `EVENT` (case name -> event name) and every describer names events only through
/// it; the stylesheet gets one `.ev-<event>` rule per event, coloured by `tone`.
enum DashboardEvents {
    /// How the timeline colours an event's badge.
    enum Tone: CaseIterable {
        case decision, neutral, good, warning, bad

        var css: String {
            switch self {
            case .decision: "color:var(--blue); background:rgba(10,132,255,.12);"
            case .neutral: "color:#c6c6d0; background:#22222a;"
            case .good: "color:var(--green); background:rgba(48,209,88,.10);"
            case .warning: "color:var(--amber); background:rgba(255,159,10,.10);"
            case .bad: "color:var(--red); background:rgba(255,69,58,.10);"
            }
        }
    }

    /// Every event's tone (a new event must choose one: the switch is exhaustive).
    static func tone(_ event: DecisionEvent) -> Tone {
        switch event {
        case .decide, .renewed: .decision
        case .send, .broadcast, .alert, .channelDeleted, .startHeld: .neutral
        case .adopted, .channelCreated, .questionAnswered: .good
        case .clientEnded, .cardExpired, .startVetoed, .partial, .noneAccepted, .noTokens, .questionCancelled, .questionExpired:
            .warning
        case .tokenPruned, .channelFailed: .bad
        }
    }

    /// The script's `EVENT` constant: `{ decide: "decide", noTokens: "no-tokens", ... }`.
    static var javaScript: String {
        let entries = DecisionEvent.allCases.map { "  \(caseName($0)): \"\($0.rawValue)\"," }
        return "const EVENT = Object.freeze({\n" + entries.joined(separator: "\n") + "\n});\n"
    }

    /// One badge rule per event.
    static var css: String {
        DecisionEvent.allCases.map { ".ev-\($0.rawValue) { \(tone($0).css) }" }.joined(separator: "\n") + "\n"
    }

    /// The Swift case name, which the script uses as the key (`noTokens` for `no-tokens`).
    static func caseName(_ event: DecisionEvent) -> String { String(describing: event) }
}
