import FleetApp

/// Storage in memory: survives a simulated relaunch when the same instance is passed to the next engine.
public final class InMemoryKeyValueStorage: KeyValueStorage {
    public private(set) var values: [String: String] = [:]
    public init() {}
    public func string(forKey key: String) -> String? { values[key] }
    public func set(_ value: String?, forKey key: String) { values[key] = value }
}
