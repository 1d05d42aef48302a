import FleetCore

/// One device's running analysis: consumes its entries in log order and keeps only bounded state.
///
/// Memory stays bounded however long the log: at most one start awaits its adoption (see StartLedger),
/// listed starts and tracked tokens are capped, and the rest are counters.
struct DeviceTimeline {
    /// An `adopted` within this many seconds of a start counts as that start's adoption (the seed's ~90 s).
    static let adoptionWindowSeconds = 90.0
    static let maxListedStarts = 200
    static let maxListedTokens = 50
    static let maxTrackedTokens = 1_000

    let deviceId: String
    private var starts = StartLedger()
    private var sendCounts: [SendKey: Int] = [:]
    private var sendTotal = 0
    private var latencyTotal = 0.0
    private var latencyCount = 0
    private var latencyMax: Double?
    private var prunedCount = 0
    private var prunedTokens: [String] = []
    private var vetoes = 0
    private var clientEndedByHour: [Double: Int] = [:]
    private var shortfalls = ShortfallTracker()
    private var frozen = FrozenTracker()
    private var previousEvent: DecisionEvent?

    private struct SendKey: Hashable {
        var status: Int?
        var reason: String?
    }

    init(deviceId: String) { self.deviceId = deviceId }

    mutating func consume(_ entry: LogEntry) {
        guard let event = entry.event else { return }
        switch event {
        case .decide:
            shortfalls.decided()
            switch entry.action {
            case .start:
                frozen.close(at: entry.ts, endedBy: "start")
                starts.started(at: entry.ts, tokens: entry.tokens)
                frozen.open(at: entry.ts)
            case .end:
                frozen.close(at: entry.ts, endedBy: "end")
            default: break
            }
        case .send:
            recordSend(entry)
        case .noneAccepted, .partial, .noTokens:
            shortfalls.fellShort(event, at: entry.ts)
            // `none-accepted` and `no-tokens` follow their own decide (older logs wrote `no-tokens` alone):
            // a start that reached no token made no card.
            let isOwnDecide = event == .noneAccepted || previousEvent == .decide
            if event != .partial, isOwnDecide, starts.lastDecideAction == .start, entry.action ?? .start == .start,
                starts.markLatestNotDelivered()
            {
                frozen.cancelOpen()
            }
        case .adopted:
            // Only a new card's token ends an unadopted start's stretch; a re-registered one reaches no new card.
            if starts.adopted(at: entry.ts, token: entry.token) { frozen.close(at: entry.ts, endedBy: event.rawValue) }
        case .clientEnded:
            clientEndedByHour[(entry.ts / 3_600).rounded(.down) * 3_600, default: 0] += 1
            frozen.close(at: entry.ts, endedBy: event.rawValue)
        case .startVetoed:
            vetoes += 1
        case .tokenPruned:
            prunedCount += 1
            if let token = entry.token {
                if prunedTokens.count < Self.maxListedTokens, !prunedTokens.contains(token) { prunedTokens.append(token) }
                frozen.tokenPruned(token, at: entry.ts)
            }
        default:
            break
        }
        if event == .decide { starts.lastDecideAction = entry.action }
        previousEvent = event
    }

    private mutating func recordSend(_ entry: LogEntry) {
        sendTotal += 1
        sendCounts[SendKey(status: entry.status, reason: entry.reason), default: 0] += 1
        if let milliseconds = entry.milliseconds {
            latencyTotal += milliseconds
            latencyCount += 1
            latencyMax = max(latencyMax ?? milliseconds, milliseconds)
        }
        guard let token = entry.token, entry.action == .update || entry.action == .end else { return }
        starts.sentToCard(token)
        if entry.status == 200 {
            frozen.tokenAccepted(token, at: entry.ts, limit: Self.maxTrackedTokens)
        }
    }

    /// The device's diagnosis once the log ended at `lastTs`.
    func diagnosis(lastTs: Double) -> DeviceDiagnosis {
        var starts = starts
        starts.finish(lastTs: lastTs)
        var frozen = frozen
        frozen.close(at: lastTs, endedBy: "end-of-log")
        let byStatus = sendCounts.map { SendCount(status: $0.key.status, reason: $0.key.reason, count: $0.value) }
            .sorted { ($0.count, $1.status ?? 0, $1.reason ?? "") > ($1.count, $0.status ?? 0, $0.reason ?? "") }
        let perHour = clientEndedByHour.map { HourCount(hour: $0.key, count: $0.value) }.sorted { $0.hour < $1.hour }
        let peak = perHour.max { ($0.count, $1.hour) < ($1.count, $0.hour) }
        return DeviceDiagnosis(
            deviceId: deviceId,
            starts: starts.summary,
            sends: SendSummary(
                total: sendTotal, byStatus: byStatus,
                meanMilliseconds: latencyCount == 0 ? nil : latencyTotal / Double(latencyCount),
                maxMilliseconds: latencyMax),
            prunedTokens: PrunedTokens(count: prunedCount, tokens: prunedTokens),
            startVetoes: vetoes,
            clientEnded: ClientEndedSummary(
                total: perHour.reduce(0) { $0 + $1.count }, peakPerHour: peak?.count ?? 0, peakHour: peak?.hour,
                perHour: perHour),
            shortfalls: shortfalls.summary(lastTs: lastTs),
            longestFrozen: frozen.longest)
    }
}
