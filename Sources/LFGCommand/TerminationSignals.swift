import Dispatch
import Foundation

/// SIGINT and SIGTERM, caught from the moment this is made until it is released.
///
/// `lfg serve` makes it before it starts listening, so a signal sent as soon as the banner is out is
/// never lost. Made later (when serving starts), a signal landing between `signal(SIG_IGN)` and
/// libdispatch registering its handler (asynchronously, on its manager thread) was dropped, and the
/// server never stopped: a test that stopped a server right after its banner hung on `waitUntilExit`.
/// Only a real process makes one: it leaves both signals ignored by the default handler for good.
final class TerminationSignals: @unchecked Sendable {
    // Invariant: `sources` is set once in `init` and only cancelled in `deinit`; `stream` is Sendable.
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    deinit { for source in sources { source.cancel() } }

    /// Returns at the first signal, also one that arrived before the call (or when cancelled).
    func wait() async {
        for await _ in stream { return }
    }
}
