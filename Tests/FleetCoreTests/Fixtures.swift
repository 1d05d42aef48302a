import FleetCore

extension FleetSession {
    /// A session with sensible defaults: titled after its sid, on the local host, idle.
    static func fixture(
        _ sid: SessionID, title: String? = nil, host: HostID = .local, cwd: String = "", busy: Bool = false,
        blocked: Bool = false, prompt: Prompt? = nil, archived: Bool = false, isHostDown: Bool = false
    ) -> FleetSession {
        FleetSession(
            sid: sid,
            report: SessionReport(
                title: title ?? "Session \(sid)", host: host, cwd: cwd, busy: busy, blocked: blocked, prompt: prompt,
                archived: archived),
            isHostDown: isHostDown)
    }

    static func working(_ sid: SessionID, cwd: String = "") -> FleetSession { fixture(sid, cwd: cwd, busy: true) }
    static func waiting(_ sid: SessionID) -> FleetSession {
        fixture(sid, prompt: Prompt(kind: .permission, text: "Run tests?"))
    }
}

extension Row {
    static func fixture(_ sid: SessionID, state: RowState = .working, since: UnixTime = 0) -> Row {
        Row(sid: sid, title: "Session \(sid)", state: state, since: since)
    }
}
