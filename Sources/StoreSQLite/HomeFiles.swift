import ControlPlane
import Foundation

/// The exclusive lock of `$LFG_HOME` (`watcher.lock`): held for the life of the one `lfg serve` that
/// owns the home, so two servers never both write its store or both push (one home, one writer).
/// The kernel releases a `flock` when its holder dies, so a killed server's home is taken by the next one.
public final class HomeLock: Sendable {
    private let descriptor: Int32
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }  // closing releases the flock

    /// Takes the lock at `path` without waiting; nil when another process holds it.
    public static func acquire(path: String) throws(StoreError) -> HomeLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(
                operation: "open \(path)", code: errno, message: "\(String(cString: strerror(errno))); check LFG_HOME is writable")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return HomeLock(descriptor: descriptor, path: path)
    }
}

/// The files of `$LFG_HOME`.
public enum HomeFiles {
    public static let database = "lfg.sqlite"
    public static let decisionLog = "liveactivity.log"
    public static let authToken = "auth-token"
    public static let watcherLock = "watcher.lock"

    /// The files that hold tokens, reports or the log: each is kept at mode 0600.
    public static let dataFiles = [
        database, database + "-wal", database + "-shm", decisionLog, authToken, watcherLock,
    ]

    /// Creates the home folder (mode 0700) when missing. Returns a warning when an existing home
    /// can be read or entered by other users (its files are still kept 0600; the folder is left as it is,
    /// since LFG_HOME may point at a folder the user shares on purpose).
    @discardableResult
    public static func prepare(_ home: String) throws(StoreError) -> String? {
        do {
            try FileManager.default.createDirectory(
                atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(operation: "create \(home)", message: "\(error); set LFG_HOME to a writable folder")
        }
        var info = stat()
        guard stat(home, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        return "\(home) is readable by other users (mode \(String(info.st_mode & 0o777, radix: 8))); "
            + "its data files are kept 0600, and chmod 700 \(home) hides their names too"
    }

    /// Makes every data file of `home` private (0600): existing ones are changed, and the store and the
    /// log are created 0600 when missing (SQLite gives its `-wal` and `-shm` files the store's mode).
    public static func restrictModes(_ home: String) throws(StoreError) {
        for name in dataFiles {
            let path = home + "/" + name
            if name == database || name == decisionLog {
                let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
                if descriptor >= 0 { close(descriptor) }
            }
            guard access(path, F_OK) == 0 else { continue }
            guard chmod(path, 0o600) == 0 else {
                throw StoreError(
                    operation: "chmod 600 \(path)", code: errno,
                    message: "\(String(cString: strerror(errno))); make the data files of LFG_HOME yours")
            }
        }
    }

    /// The folder of the accounts' own decision logs (contract 8.4: every log line belongs to one account).
    public static let accountLogs = "accounts"

    /// The path of `account`'s decision log, `accounts/<name>.log` under `home`, with the folder (0700) and
    /// the file (0600) made when missing.
    public static func accountLog(_ home: String, account: String) throws(StoreError) -> String {
        let folder = home + "/" + accountLogs
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(operation: "create \(folder)", message: "\(error); set LFG_HOME to a writable folder")
        }
        let path = folder + "/" + account + ".log"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(
                operation: "create \(path)", code: errno, message: "\(String(cString: strerror(errno))); check LFG_HOME is writable")
        }
        close(descriptor)
        return path
    }

    /// The bearer token in `path`, or a new one written there with mode 0600.
    public static func authToken(at path: String, generate: () -> String) throws(StoreError) -> String {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !token.isEmpty { return token }
        }
        let token = generate()
        let created = FileManager.default.createFile(
            atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        guard created, chmod(path, 0o600) == 0 else {
            throw StoreError(operation: "write \(path)", message: "cannot write the auth token; check LFG_HOME is writable")
        }
        return token
    }
}
