import Glibc

/// A self-pipe another thread signals to wake a loop blocked in `poll`. Thread-safe.
public final class Wakeup: Sendable {
    /// The end to poll for readability.
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() throws(WireError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw WireError("pipe: " + TCPSocket.systemError()) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        _ = close(descriptor)
        _ = close(writeEnd)
    }

    /// Wakes the loop (callable from any thread); a full pipe already means "awake".
    public func signal() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Clears pending signals (loop thread).
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}

/// One `poll(2)` round over a set of descriptors.
public struct PollSet {
    public private(set) var entries: [pollfd] = []

    public init() {}

    public mutating func add(_ descriptor: Int32, read: Bool, write: Bool) {
        var events: Int16 = 0
        if read { events |= Int16(POLLIN) }
        if write { events |= Int16(POLLOUT) }
        entries.append(pollfd(fd: descriptor, events: events, revents: 0))
    }

    /// Waits up to `timeoutMilliseconds` (-1 forever); returns how many are ready.
    @discardableResult
    public mutating func wait(timeoutMilliseconds: Int32) -> Int {
        Int(poll(&entries, nfds_t(entries.count), timeoutMilliseconds))
    }

    public func isReadable(_ index: Int) -> Bool {
        entries[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }

    public func isWritable(_ index: Int) -> Bool {
        entries[index].revents & Int16(POLLOUT | POLLHUP | POLLERR) != 0
    }
}
