import ControlPlane
import FleetCore

extension DashboardSnapshot {
    /// The snapshot of the control plane's answers at `now` (Unix seconds).
    public init(
        state: LiveActivityState, sessions: [SessionListing], tokens: [TokenListing], questions: [Question] = [],
        now: UnixTime
    ) {
        generatedAt = now
        watcher = WatcherStatus(
            enabled: state.enabled, reason: state.reason, decisionLogUnwrittenLines: state.decisionLogUnwrittenLines)
        let isAnyHostDown = sessions.contains { $0.displayState == .unknown }
        devices = state.devices.map { device in
            let uncertainty = CardUncertainty.of(
                card: device.card, isChannelMode: device.mode == .channel,
                updateTokensRegisteredAt: tokens.filter { $0.deviceId == device.deviceId && $0.kind == .update }
                    .map(\.registeredAt),
                isAnyHostDown: isAnyHostDown)
            return DeviceCard(
                deviceId: device.deviceId.rawValue, env: device.env?.rawValue,
                card: device.card.map { Self.card($0, now: now) }, veto: device.veto?.map(\.rawValue),
                tokenCounts: TokenCounts(pushToStart: device.tokens.pushToStart, update: device.tokens.update),
                uncertainty: uncertainty.map { Warning(kind: $0, text: $0.text) },
                privacy: PrivacyStatus(isOn: device.privacy, sealKeyId: device.sealKeyId))
        }
        self.sessions = sessions.sorted(by: Self.listOrder).map { listing in
            SessionLine(
                sid: listing.sid.rawValue, title: listing.report.title, host: listing.report.host.rawValue,
                isHostDown: listing.displayState == .unknown, displayState: listing.displayState.rawValue,
                cwd: listing.report.cwd, step: listing.report.step, promptKind: listing.report.prompt?.kind.rawValue)
        }
        self.tokens = tokens.map { token in
            TokenLine(
                deviceId: token.deviceId.rawValue, kind: token.kind.rawValue, env: token.env.rawValue,
                token: TokenHex.short(token.token), registeredAt: token.registeredAt,
                ageLabel: ElapsedLabel.text(since: token.registeredAt, now: now))
        }
        let titles = Dictionary(sessions.map { ($0.sid, $0.report.title) }, uniquingKeysWith: { first, _ in first })
        self.questions = questions.filter { $0.state == .pending }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map { QuestionLine($0, title: titles[$0.sid] ?? "", now: now) }
        let sinces = devices.flatMap { $0.card?.content?.surfaces.first?.rows.map(\.since) ?? [] }
            + tokens.map(\.registeredAt) + state.devices.compactMap { $0.card?.startedAt }
        let nextChange = sinces.map { ElapsedLabel.secondsUntilNextChange(since: $0, now: now) }.min() ?? 60
        refreshAfterSeconds = min(60, max(1, nextChange))
    }

    /// Sessions that want a person first, then the working ones, then the rest; by title within a state.
    private static func listOrder(_ lhs: SessionListing, _ rhs: SessionListing) -> Bool {
        let rank: [DisplayState: Int] = [.needsInput: 0, .working: 1, .noNews: 1, .blocked: 2, .unknown: 3, .idle: 4]
        let left = (rank[lhs.displayState] ?? 5, lhs.report.title, lhs.sid.rawValue)
        let right = (rank[rhs.displayState] ?? 5, rhs.report.title, rhs.sid.rawValue)
        return left < right
    }

    private static func card(_ card: LiveActivityState.Card, now: UnixTime) -> Card {
        Card(
            origin: card.origin.rawValue, startedAt: card.startedAt,
            startedLabel: ElapsedLabel.text(since: card.startedAt, now: now),
            content: card.contentState.map { state in
                Content(
                    working: state.working, needsInput: state.needsInput, more: state.more,
                    activeTotal: state.activeTotal, accent: state.accent.hex, updatedAt: state.updatedAt,
                    rows: state.rows.map { "\($0.sid.rawValue):\($0.state.rawValue)" },
                    surfaces: CardSurface.allCases.map { SurfaceView(SurfaceLayout(state, on: $0), now: now) })
            })
    }
}
