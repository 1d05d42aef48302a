import FleetCore
import Foundation

/// Small persistent storage for the app's own facts (its device id, the tokens servers accepted).
public protocol KeyValueStorage: AnyObject {
    func string(forKey key: String) -> String?
    func set(_ value: String?, forKey key: String)
}

/// Storage in `UserDefaults` (the app's, or an app group's so the widget can read it).
public final class UserDefaultsStorage: KeyValueStorage {
    let defaults: UserDefaults
    public init(_ defaults: UserDefaults) { self.defaults = defaults }
    public func string(forKey key: String) -> String? { defaults.string(forKey: key) }
    public func set(_ value: String?, forKey key: String) { defaults.set(value, forKey: key) }
}

/// The install's `deviceId`: made once, then kept.
public enum DeviceIdentity {
    /// Where the id is kept.
    public static let storageKey = "lfg.deviceId"

    /// The stored device id, or a new one from `makeID` (stored before it is returned).
    public static func deviceID(in storage: any KeyValueStorage, makeID: () -> String) -> DeviceID {
        if let stored = storage.string(forKey: storageKey), !stored.isEmpty { return DeviceID(stored) }
        let made = makeID()
        storage.set(made, forKey: storageKey)
        return DeviceID(made)
    }

    /// The stored device id, or a new random UUID (the live generator).
    public static func deviceID(in storage: any KeyValueStorage) -> DeviceID {
        deviceID(in: storage) { UUID().uuidString.lowercased() }
    }
}
