/// Orders the answers of `GET /api/sessions` against the changes the event stream already applied.
///
/// A listing is a snapshot the server built at some moment while the fetch was in flight; a change the
/// stream delivered in that time may be newer than it. Applying the listing wholesale undid such a change:
/// with a slow fetch, a session that had just started vanished again and the card it had brought was
/// ended about 2 s after it appeared. The server's listing carries no version, so the app orders it
/// itself: it numbers the changes it applies, and on an answer it replays, on top of the listing, every
/// change applied since that fetch was sent (changes set state, so replaying one the listing already
/// holds changes nothing; one the listing had already overtaken is set right again by the stream, which
/// delivers in order). An answer older than one already applied, or sent before the app was last
/// suspended, is ignored: what it says predates what the app already knows.
struct LiveFetchOrdering<Change> {
    struct Fetch {
        var serial: Int
        /// How many changes had been applied when the fetch was sent.
        var changesBefore: Int
        var suspensions: Int
    }

    private(set) var inFlight: [CallID: Fetch] = [:]
    private var log: [(number: Int, change: Change)] = []
    private var changesApplied = 0
    private var fetchesSent = 0
    private var newestApplied = 0
    private(set) var suspensions = 0

    /// Fetch `id` went out.
    mutating func fetchSent(_ id: CallID) {
        fetchesSent += 1
        inFlight[id] = Fetch(serial: fetchesSent, changesBefore: changesApplied, suspensions: suspensions)
    }

    /// The stream's `change` was applied to the model (kept only while a fetch may need it replayed).
    mutating func changeApplied(_ change: Change) {
        changesApplied += 1
        if !inFlight.isEmpty { log.append((changesApplied, change)) }
    }

    /// The app is being suspended: answers to fetches sent before now no longer count.
    mutating func suspended() { suspensions += 1 }

    /// Fetch `id` was answered. Returns the changes to replay on top of its listing, oldest first, or nil
    /// when the listing must be ignored (unknown fetch, failed, or older than what the model holds).
    mutating func answered(_ id: CallID, succeeded: Bool) -> [Change]? {
        guard let fetch = inFlight.removeValue(forKey: id) else { return nil }
        defer { prune() }
        guard succeeded, fetch.suspensions == suspensions, fetch.serial > newestApplied else { return nil }
        newestApplied = fetch.serial
        return log.filter { $0.number > fetch.changesBefore }.map(\.change)
    }

    /// Forgets the changes no fetch in flight could need.
    private mutating func prune() {
        guard let oldest = inFlight.values.map(\.changesBefore).min() else { return log = [] }
        log.removeAll { $0.number <= oldest }
    }
}
