import FleetCore
import Foundation

/// What the person set in the app, kept between launches: the server (its credential lives in the
/// ``CredentialStore``, never here), privacy, and the folders this phone hides.
public struct AppSettings: Hashable, Sendable, Codable {
    /// The paired server's name and address; nil until the phone is paired.
    public var server: PairedServer?
    /// Privacy mode: the server sends this phone wordless cards and sealed alerts (contract 8.3). nil until the
    /// person sets it: the server's default (`LFG_PRIVACY`) applies, so an untouched phone does not opt out of it.
    public var privacy: Bool?
    /// Folders whose sessions leave this phone's list and card (sent to the server as `hiddenDirs`).
    public var hiddenDirs: HiddenDirs

    /// A server without its credential.
    public struct PairedServer: Hashable, Sendable, Codable {
        public var name: String
        public var baseURL: String
        public init(name: String, baseURL: String) {
            self.name = name
            self.baseURL = baseURL
        }
    }

    public init(server: PairedServer? = nil, privacy: Bool? = nil, hiddenDirs: HiddenDirs = []) {
        self.server = server
        self.privacy = privacy
        self.hiddenDirs = hiddenDirs
    }

    /// Where the settings are kept (JSON).
    public static let storageKey = "lfg.settings"

    /// The settings kept in `storage`; defaults when none were kept. A stored value the app cannot read
    /// (written by a newer build) is reported, not silently replaced.
    public static func load(from storage: any KeyValueStorage) throws(AppSettingsError) -> AppSettings {
        do {
            return try storage.decoded(AppSettings.self, forKey: storageKey) ?? AppSettings()
        } catch {
            throw AppSettingsError(message: "the saved settings could not be read (\(error)); set the server again")
        }
    }

    /// Keeps the settings in `storage`.
    public func save(to storage: any KeyValueStorage) throws(AppSettingsError) {
        do {
            try storage.setEncoded(self, forKey: Self.storageKey)
        } catch {
            throw AppSettingsError(message: "the settings could not be saved (\(error))")
        }
    }

    /// The server with its credential, when paired and the credential is at hand.
    public func serverProfile(credential: String?) -> ServerProfile? {
        guard let server, let credential, !credential.isEmpty else { return nil }
        return ServerProfile(name: server.name, baseURL: server.baseURL, bearerToken: credential)
    }

    /// Adds a hidden folder (trimmed and normalised; a blank one or a repeat changes nothing).
    public mutating func hide(_ folder: String) {
        var paths = hiddenDirs.paths
        let candidate = HiddenDirs([folder.trimmingCharacters(in: .whitespacesAndNewlines)]).paths
        for path in candidate where !paths.contains(path) { paths.append(path) }
        hiddenDirs = HiddenDirs(paths)
    }

    /// Stops hiding `folder`.
    public mutating func unhide(_ folder: String) {
        hiddenDirs = HiddenDirs(hiddenDirs.paths.filter { $0 != folder })
    }
}

/// The settings could not be read or written, in words.
public struct AppSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
