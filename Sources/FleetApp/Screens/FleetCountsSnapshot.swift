import FleetCore
import Foundation

/// What the home-screen counts widget shows: the app writes it to the shared App Group storage whenever
/// the card's content changes; the widget reads it. The same ``ContentState`` the card shows, so the two
/// never disagree, plus when the app wrote it and whether the count could be trusted then.
public struct FleetCountsSnapshot: Hashable, Sendable, Codable {
    public var content: ContentState
    /// Unix seconds when the app wrote it.
    public var writtenAt: UnixTime
    /// False when a host was down or no live fetch had answered: the widget must not show a firm zero.
    public var isTrustworthy: Bool

    public init(content: ContentState, writtenAt: UnixTime, isTrustworthy: Bool) {
        self.content = content
        self.writtenAt = writtenAt
        self.isTrustworthy = isTrustworthy
    }

    /// Where the snapshot is kept in the App Group storage (JSON).
    public static let storageKey = "lfg.widget.counts"

    /// The snapshot for `engine`'s model now: reduced exactly as the card is (hidden folders left out).
    public static func make(engine: FleetAppEngine, now: UnixTime) -> FleetCountsSnapshot {
        let reduction = FleetReducer.reduce(
            engine.model.filteredSessions, previousSince: engine.controller.since, hiddenDirs: engine.model.hiddenDirs,
            now: now, guards: engine.guards)
        return FleetCountsSnapshot(
            content: reduction.contentState, writtenAt: now,
            isTrustworthy: engine.model.fleetCountIsTrustworthy && reduction.isTrustworthy)
    }

    /// The snapshot kept in `storage`, or nil when none was written or it cannot be read.
    public static func load(from storage: any KeyValueStorage) -> FleetCountsSnapshot? {
        // Unreadable (a newer build wrote it) reads as none: the widget then asks to open the app.
        try? storage.decoded(FleetCountsSnapshot.self, forKey: storageKey)
    }

    /// Keeps the snapshot in `storage`; returns whether it changed what the widget shows (so the app only
    /// asks WidgetKit to reload when it did: reloads are budgeted).
    @discardableResult
    public func save(to storage: any KeyValueStorage) throws -> Bool {
        let previous = Self.load(from: storage)
        try storage.setEncoded(self, forKey: Self.storageKey)
        guard let previous else { return true }
        return !previous.content.isSame(as: content) || previous.isTrustworthy != isTrustworthy
    }

    /// The counts line: "3 active · 2 working · 1 needs you"; "Unknown" when it cannot be trusted and
    /// counts nothing; "At least 1 active · …" when it cannot be trusted (a host is down: its sessions are
    /// in no count) but counts some, so a partial count never reads as the whole fleet.
    public var summary: String {
        let layout = SurfaceLayout(content, on: .lockScreen)
        guard isTrustworthy || layout.activeTotal > 0 else { return "Unknown" }
        let active = isTrustworthy ? "\(layout.activeTotal) active" : "At least \(layout.activeTotal) active"
        return "\(active) · \(layout.working) working · \(layout.needsInput) needs you"
    }
}
