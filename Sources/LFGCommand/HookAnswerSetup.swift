import FleetCore
import Foundation
import HookAdapter

/// `lfg hooks install`'s answer settings: the flags given are saved in `$LFG_HOME/.env` (where `lfg hook`
/// reads them), and the settings in force afterwards decide the handlers' timeout.
enum HookAnswerSetup {
    /// Saves the given settings (nil: leave as is) and returns the settings `lfg hook` will use.
    static func save(policy: AnswerPolicy?, wait: Double?, environment: [String: String]) throws -> AnswerSettings {
        let home = HookConfiguration.resolve(environment: environment) { _ in nil }.home
        var changes: [(String, String)] = []
        if let policy { changes.append(("LFG_ANSWER_POLICY", policy.description)) }
        if let wait { changes.append(("LFG_ANSWER_WAIT_S", String(Int(wait)))) }
        if !changes.isEmpty { try update(home + "/.env", with: changes) }
        return HookConfiguration.resolve(environment: environment) { path in
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }.answering
    }

    /// Sets each `NAME=value` in the .env file at `path`: replacing its line, or appending one.
    static func update(_ path: String, with changes: [(String, String)]) throws {
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        for (name, value) in changes {
            let line = "\(name)=\(value)"
            if let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + "=") }) {
                lines[index] = line
            } else {
                lines.append(line)
            }
        }
        do {
            // The file may hold the auth token: keep its mode, and make a new one private (0600).
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o600
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let temporary = path + ".lfg-new"
            let data = Data((lines.joined(separator: "\n") + "\n").utf8)
            guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: mode]),
                rename(temporary, path) == 0
            else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw CommandFailure("cannot save the answer settings in \(path) (\(error.localizedDescription)); check LFG_HOME")
        }
    }
}
