import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM as an awaitable event, for the long-running `lfg serve`.
///
/// `lfg serve` makes one before it starts listening. Why not a dispatch signal source: it needs the signal
/// ignored first and registers its handler asynchronously, so a SIGTERM landing in between was ignored and
/// lost, and the server never stopped (a child-process test hung on `waitUntilExit`). Here `init` installs
/// the handler synchronously; it only writes the signal number to a pipe (async-signal-safe), and a
/// dedicated thread wakes whoever awaits ``wait()``. A signal that lands before `init` keeps its default
/// action (the process ends): never a hang.
struct TerminationSignals: Sendable {
    init() { _ = TerminationSignalPipe.shared }

    /// Returns at the first signal, also one that arrived before the call (or when cancelled).
    func wait() async { await TerminationSignalPipe.shared.next() }
}

/// The process-wide mechanism behind ``TerminationSignals``: handlers and one reader thread, installed once.
final class TerminationSignalPipe: Sendable {
    static let handled: [Int32] = [SIGINT, SIGTERM]

    /// The one instance of the process: handlers and the reader thread are installed once, on first use.
    static let shared = TerminationSignalPipe()

    private struct State {
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
        /// A signal arrived while nobody waited: the next waiter returns at once.
        var isPending = false
    }

    private let state = Mutex(State())

    private init() {
        let pipe = terminationPipe
        let reader = Thread { [self] in
            var byte: UInt8 = 0
            while read(pipe.read, &byte, 1) == 1 { received() }
        }
        reader.name = "lfg-signals"
        reader.start()
        for number in Self.handled {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = onTerminationSignal
            #else
            action.__sigaction_u.__sa_handler = onTerminationSignal
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Returns at the next SIGINT or SIGTERM (or one that arrived while nobody waited), or when cancelled.
    func next() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.isPending || Task.isCancelled {
                        state.isPending = false
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func received() {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            if state.waiters.isEmpty { state.isPending = true }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The self-pipe: initialized before any handler is installed, so the handler only reads a ready value.
private let terminationPipe: (read: Int32, write: Int32) = {
    var descriptors: [Int32] = [-1, -1]
    _ = pipe(&descriptors)
    return (descriptors[0], descriptors[1])
}()

/// Runs in signal context: only async-signal-safe calls.
private func onTerminationSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(terminationPipe.write, &byte, 1)
}
