internal import CCurl
internal import CCurlShims
import Foundation

/// One request in flight on the curl thread: its easy handle, what has arrived, and whom to tell.
/// Confined to the curl thread; libcurl's callbacks reach it through an `Unmanaged` pointer.
final class Transfer {
    /// Who waits for the outcome.
    enum Delivery {
        /// `send`: the whole response at the end.
        case whole(CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>)
        /// `openStream`: the head once headers are complete, then chunks.
        case stream(
            head: CheckedContinuation<Result<HTTPClientStream, HTTPClientError>, Never>?,
            chunks: AsyncThrowingStream<Data, any Error>.Continuation,
            makeStream: @Sendable (Int, [(name: String, value: String)]) -> HTTPClientStream)
    }

    let easy: UnsafeMutableRawPointer
    let url: String
    private var delivery: Delivery
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var body = Data()

    init(easy: UnsafeMutableRawPointer, url: String, delivery: Delivery) {
        self.easy = easy
        self.url = url
        self.delivery = delivery
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Sets every option for `request`; returns the error when the request cannot be made.
    func configure(_ request: HTTPClientRequest, isStream: Bool) -> HTTPClientError? {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var code = lfg_curl_easy_setopt_pointer(easy, CURLOPT_URL, request.url)
        guard code == CURLE_OK else { return .invalidURL(request.url) }
        _ = lfg_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = lfg_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, request.timeoutMilliseconds)
        if !isStream { _ = lfg_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds) }
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = lfg_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, transferReceivedBody)
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = lfg_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, transferReceivedHeader)
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
        switch request.method {
        case "GET" where request.body.isEmpty: code = lfg_curl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)
        case "HEAD": code = lfg_curl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        default:
            _ = lfg_curl_easy_setopt_long(easy, CURLOPT_POST, 1)
            _ = lfg_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            code = request.body.withUnsafeBytes { bytes in
                lfg_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(me))
            }
            if request.method != "POST" {
                _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, request.method)
            }
        }
        guard code == CURLE_OK else { return .transport(code: Int(code.rawValue), message: "could not set the body") }
        // "Expect:" stops libcurl waiting for a 100-continue before sending a body.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList)
        return nil
    }

    /// The transfer ended (done, failed or cancelled): tell whoever waits.
    func complete(_ code: CURLcode) {
        let failure = code == CURLE_OK ? nil : error(for: code)
        switch delivery {
        case .whole(let continuation):
            if let failure {
                continuation.resume(returning: .failure(failure))
            } else {
                continuation.resume(returning: .success(HTTPClientResponse(status: status, headers: headers, body: body)))
            }
        case .stream(let head, let chunks, let makeStream):
            if let head {
                head.resume(returning: failure.map { .failure($0) } ?? .success(makeStream(status, headers)))
            }
            chunks.finish(throwing: head == nil ? failure : nil)
        }
    }

    /// The transfer was abandoned by its caller or the client shut down.
    func cancel() { Self.fail(delivery, with: .cancelled) }

    /// Tells whoever waits on `delivery` that the request failed before or while it ran.
    static func fail(_ delivery: Delivery, with error: HTTPClientError) {
        switch delivery {
        case .whole(let continuation): continuation.resume(returning: .failure(error))
        case .stream(let head, let chunks, _):
            head?.resume(returning: .failure(error))
            chunks.finish(throwing: head == nil && error != .cancelled ? error : nil)
        }
    }

    fileprivate func receivedHeader(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new status line (after a 100 Continue or a redirect) starts a new header block.
            let parts = trimmed.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = []
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = String(trimmed[..<colon])
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        } else if trimmed.isEmpty, status >= 200 {
            deliverHead()
        }
    }

    fileprivate func receivedBody(_ bytes: UnsafeRawBufferPointer) {
        if case .stream(_, let chunks, _) = delivery {
            deliverHead()
            chunks.yield(Data(bytes))
        } else {
            body.append(contentsOf: bytes)
        }
    }

    private func deliverHead() {
        guard case .stream(let head?, let chunks, let makeStream) = delivery else { return }
        head.resume(returning: .success(makeStream(status, headers)))
        delivery = .stream(head: nil, chunks: chunks, makeStream: makeStream)
    }

    private func error(for code: CURLcode) -> HTTPClientError {
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: return .couldNotConnect(message)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(message)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .invalidURL(url)
        default: return .transport(code: Int(code.rawValue), message: message)
        }
    }
}

private func transferReceivedBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        .receivedBody(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size * count))
    return size * count
}

private func transferReceivedHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context, let data else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        .receivedHeader(String(decoding: bytes, as: UTF8.self))
    return size * count
}
