internal import CCurl
internal import CCurlShims
import Foundation
import Synchronization

/// libcurl's global state, set up once per process before the first handle.
private let curlGlobalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

/// A request waiting to be started on the curl thread.
struct TransferJob: Sendable {
    let id: Int
    let request: HTTPClientRequest
    let delivery: UncheckedTransferDelivery
}

/// Carries a `Transfer.Delivery` (continuations and a stream continuation, all thread-safe) to the curl thread.
struct UncheckedTransferDelivery: @unchecked Sendable {
    let value: Transfer.Delivery
}

/// The mailbox between callers (any thread) and the curl thread.
final class CurlInbox: Sendable {
    private struct State {
        var jobs: [TransferJob] = []
        var cancellations: [Int] = []
        var isStopping = false
        /// The multi handle is freed: nobody may wake it any more.
        var isTerminated = false
        var nextID = 0
    }

    private let state = Mutex(State())
    /// The multi handle, used from other threads only for `curl_multi_wakeup`, which libcurl documents as thread-safe.
    private let multi: UncheckedMulti

    struct UncheckedMulti: @unchecked Sendable { let pointer: UnsafeMutableRawPointer }

    init(multi: UnsafeMutableRawPointer) { self.multi = UncheckedMulti(pointer: multi) }

    func makeID() -> Int { state.withLock { $0.nextID += 1; return $0.nextID } }

    /// Queues `job`; returns false once the client has shut down.
    func submit(_ job: TransferJob) -> Bool {
        state.withLock { state in
            guard !state.isStopping else { return false }
            state.jobs.append(job)
            Self.wake(multi, state)
            return true
        }
    }

    /// Asks the curl thread to abandon transfer `id` (a no-op once it finished or the client stopped).
    func cancel(_ id: Int) {
        state.withLock { state in
            state.cancellations.append(id)
            Self.wake(multi, state)
        }
    }

    func stop() {
        state.withLock { state in
            state.isStopping = true
            Self.wake(multi, state)
        }
    }

    /// Frees the multi handle under the lock, so no caller can wake it afterwards (a stream's
    /// `onTermination` may fire long after the client is gone).
    func terminate(_ cleanup: () -> Void) {
        state.withLock { state in
            state.isTerminated = true
            cleanup()
        }
    }

    private static func wake(_ multi: UncheckedMulti, _ state: State) {
        if !state.isTerminated { curl_multi_wakeup(multi.pointer) }
    }

    /// Takes everything queued; `isStopping` tells the loop to finish.
    func take() -> (jobs: [TransferJob], cancellations: [Int], isStopping: Bool) {
        state.withLock { state in
            defer {
                state.jobs.removeAll()
                state.cancellations.removeAll()
            }
            return (state.jobs, state.cancellations, state.isStopping)
        }
    }
}

/// The curl multi loop. Created on the caller's thread, then used only by its own thread.
final class CurlEngine {
    let multi: UnsafeMutableRawPointer
    private var transfers: [Int: Transfer] = [:]

    init() {
        _ = curlGlobalInit
        multi = curl_multi_init()
    }

    /// Runs until the inbox says stop; then cancels whatever is left and frees the handles.
    func run(_ inbox: CurlInbox) {
        while true {
            let (jobs, cancellations, isStopping) = inbox.take()
            for job in jobs { start(job) }
            for id in cancellations { abandon(id) }
            if isStopping { break }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            readCompletions()
            _ = curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
        for id in Array(transfers.keys) { abandon(id) }
        inbox.terminate { curl_multi_cleanup(multi) }
    }

    private func start(_ job: TransferJob) {
        guard let easy = curl_easy_init() else {
            Transfer.fail(job.delivery.value, with: .transport(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "out of memory"))
            return
        }
        let isStream = if case .stream = job.delivery.value { true } else { false }
        let transfer = Transfer(easy: easy, url: job.request.url, delivery: job.delivery.value)
        if let problem = transfer.configure(job.request, isStream: isStream) {
            curl_easy_cleanup(easy)
            Transfer.fail(job.delivery.value, with: problem)
            return
        }
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, UnsafeRawPointer(bitPattern: job.id))
        transfers[job.id] = transfer
        _ = curl_multi_add_handle(multi, easy)
    }

    private func readCompletions() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var privateValue: UnsafeMutableRawPointer?
            _ = lfg_curl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &privateValue)
            let id = Int(bitPattern: privateValue)
            let code = message.pointee.data.result
            guard let transfer = transfers.removeValue(forKey: id) else { continue }
            _ = curl_multi_remove_handle(multi, easy)
            curl_easy_cleanup(easy)
            transfer.complete(code)
        }
    }

    private func abandon(_ id: Int) {
        guard let transfer = transfers.removeValue(forKey: id) else { return }
        _ = curl_multi_remove_handle(multi, transfer.easy)
        curl_easy_cleanup(transfer.easy)
        transfer.cancel()
    }
}
