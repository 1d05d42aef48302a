import ControlPlane
import Foundation

/// The exclusive watcher lock of `$LFG_HOME`: held for the life of the process that pushes, so two
/// servers on one home never both push (the lock, not the port number, is what protects the phone).
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

    /// Creates the home folder (mode 0700) when missing.
    public static func prepare(_ home: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(
                atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(operation: "create \(home)", message: "\(error); set LFG_HOME to a writable folder")
        }
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
