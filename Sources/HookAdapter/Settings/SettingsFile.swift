import FleetCore
import Foundation

/// Edits an agent's hook configuration file (Claude Code's settings, Codex's hooks.json) in place: parse, transform, back up, write.
///
/// A file that is not valid JSON (or has the wrong shape) is refused and left byte for byte as it
/// was. A transformation that changes nothing writes nothing, so running install twice is a no-op.
public enum SettingsFile {
    /// What an edit did.
    public struct Outcome: Hashable, Sendable {
        /// The file written (symlinks resolved), or that would have been.
        public var path: String
        /// Whether the file changed.
        public var changed: Bool
        /// The copy of the previous file, when there was one and it changed.
        public var backupPath: String?
        /// The document after the edit.
        public var document: JSONValue
    }

    /// Applies `transform` to the JSON in `path` (a missing or blank file reads as `{}`).
    ///
    /// Before a changed document is written, the old file is copied to `<path>.lfg-backup-<now>`
    /// (`now`: Unix seconds from the caller's wall clock). The write goes through a temporary file
    /// and keeps the old file's permissions.
    public static func edit(
        _ path: String, now: UnixTime, transform: (JSONValue) throws(SettingsShapeError) -> JSONValue
    ) throws(SettingsFileError) -> Outcome {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let manager = FileManager.default
        let exists = manager.fileExists(atPath: target.path)
        var original = JSONValue.object([:])
        if exists {
            guard let data = manager.contents(atPath: target.path) else {
                throw SettingsFileError("cannot read \(target.path); check its permissions")
            }
            let text = String(decoding: data, as: UTF8.self)
            if !text.allSatisfy(\.isWhitespace) {
                do {
                    original = try JSONParser.parse(text)
                } catch {
                    throw SettingsFileError(
                        "\(target.path) is not valid JSON (\(error)); fix it or pass another file with --settings. Nothing was changed")
                }
            }
        }
        let updated: JSONValue
        do {
            updated = try transform(original)
        } catch {
            throw SettingsFileError("\(target.path) cannot take hooks: \(error); fix it by hand. Nothing was changed")
        }
        guard updated != original else {
            return Outcome(path: target.path, changed: false, backupPath: nil, document: original)
        }
        do {
            var backup: String?
            if exists {
                backup = try makeBackup(of: target, now: now)
            } else {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            let permissions = (try? manager.attributesOfItem(atPath: target.path)[.posixPermissions]) ?? nil
            try Data((updated.prettyPrinted() + "\n").utf8).write(to: target, options: .atomic)
            if let permissions { try manager.setAttributes([.posixPermissions: permissions], ofItemAtPath: target.path) }
            return Outcome(path: target.path, changed: true, backupPath: backup, document: updated)
        } catch {
            throw SettingsFileError("cannot write \(target.path): \(error.localizedDescription)")
        }
    }

    /// Copies `file` to a backup name that no earlier backup uses.
    static func makeBackup(of file: URL, now: UnixTime) throws -> String {
        let base = file.path + ".lfg-backup-\(Int(now))"
        var candidate = base
        var counter = 1
        while FileManager.default.fileExists(atPath: candidate) {
            counter += 1
            candidate = base + "-\(counter)"
        }
        try FileManager.default.copyItem(atPath: file.path, toPath: candidate)
        return candidate
    }
}

/// A failure a command reports on one line (exit 1): what is wrong and what to do.
public struct SettingsFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
