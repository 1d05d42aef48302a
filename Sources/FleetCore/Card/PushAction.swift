/// What the watcher asks APNs to do with a card; the `action` of a decision-log line.
public enum PushAction: String, Hashable, Sendable, Codable, CaseIterable {
    case start, update, end
}
