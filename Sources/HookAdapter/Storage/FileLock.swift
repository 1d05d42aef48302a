#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file, held until ``release()`` or deinit.
///
/// One lock per session: the process holding it is the one reducing and delivering that session, so
/// its reports leave in order. Hooks only try it (``tryAcquire(_:)``); the server's start-up intake
/// waits for it, bounded by its deadline.
final class FileLock {
    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Takes the lock on `path` (created 0600 when missing), retrying until `deadline`; nil when the
    /// file cannot be opened or another process holds the lock past the deadline.
    static func acquire(_ path: String, until deadline: HookDeadline) -> FileLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return FileLock(descriptor: descriptor) }
            guard errno == EWOULDBLOCK || errno == EINTR, !deadline.hasPassed else {
                close(descriptor)
                return nil
            }
            usleep(2_000)
        }
    }

    /// Takes the lock on `path` only if nobody holds it: nil at once otherwise (or when the file cannot
    /// be opened). Delivery uses this, so a hook never queues behind another.
    static func tryAcquire(_ path: String) -> FileLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                return nil
            }
        }
        return FileLock(descriptor: descriptor)
    }

    /// Releases the lock now (idempotent).
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
