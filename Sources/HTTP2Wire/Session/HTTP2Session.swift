internal import CNGHTTP2
import Glibc

/// Receives what an ``HTTP2Session`` parses. Called on the session's thread, inside `receive`.
public protocol HTTP2SessionDelegate: AnyObject {
    /// One header field of a HEADERS frame on `stream` (pseudo-headers included); the bytes live only
    /// for the call.
    func http2Header(stream: Int32, name: HeaderBytes, value: HeaderBytes)
    /// A chunk of a DATA frame's body on `stream`.
    func http2Data(stream: Int32, bytes: UnsafeRawBufferPointer)
    /// The peer finished sending on `stream` (END_STREAM): a whole request or response arrived.
    func http2EndStream(stream: Int32)
    /// `stream` closed; a non-zero `errorCode` is an HTTP/2 error code (7 = REFUSED_STREAM: not processed).
    func http2StreamClosed(stream: Int32, errorCode: UInt32)
    /// The peer sent GOAWAY: streams above `lastStreamID` were not processed.
    func http2GoAway(lastStreamID: Int32, errorCode: UInt32, debugData: [UInt8])
    /// The peer's SETTINGS arrived (its stream limit may have changed).
    func http2SettingsReceived()
    /// The peer acknowledged one of our PINGs.
    func http2PingAcknowledged()
}

extension HTTP2SessionDelegate {
    /// Most delegates send no PING; nghttp2 answers the peer's PINGs by itself.
    public func http2PingAcknowledged() {}
}

/// A header name or value as nghttp2 hands it over: bytes valid only during the callback.
public struct HeaderBytes {
    public let bytes: UnsafeBufferPointer<UInt8>

    /// A copy as a String.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes spell `text` (ASCII), without making a String.
    public func equals(_ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return bytes.isEmpty }
        return memcmp(base, text.utf8Start, bytes.count) == 0
    }

    /// The bytes as a non-negative decimal number, or nil.
    public var decimal: Int? {
        guard !bytes.isEmpty, bytes.count < 10 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}

/// A request's or response's header fields packed into one byte buffer, reusable between requests
/// (``removeAll()`` keeps the capacity) so the hot path allocates nothing per push.
public struct HeaderBlock {
    var storage: [UInt8] = []
    var ranges: [(name: Int, nameLength: Int, value: Int, valueLength: Int)] = []

    public init() {
        storage.reserveCapacity(512)
        ranges.reserveCapacity(12)
    }

    /// Appends one field (lowercase name).
    public mutating func add(_ name: String, _ value: String) {
        let nameStart = storage.count
        storage.append(contentsOf: name.utf8)
        let valueStart = storage.count
        storage.append(contentsOf: value.utf8)
        ranges.append((nameStart, valueStart - nameStart, valueStart, storage.count - valueStart))
    }

    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
    }

    /// Hands nghttp2 the name/value array; nghttp2 copies the bytes before returning.
    func withFields(_ body: (UnsafePointer<nghttp2_nv>?, Int) -> Int32) -> Int32 {
        storage.withUnsafeBufferPointer { buffer in
            // nghttp2 takes mutable pointers but only reads (and copies) the bytes.
            guard let base = buffer.baseAddress.map(UnsafeMutablePointer.init(mutating:)) else { return body(nil, 0) }
            return withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: ranges.count) { fields in
                for (index, range) in ranges.enumerated() {
                    fields[index] = nghttp2_nv(
                        name: base + range.name, value: base + range.value, namelen: range.nameLength,
                        valuelen: range.valueLength, flags: 0)
                }
                return body(fields.baseAddress, ranges.count)
            }
        }
    }
}

/// One HTTP/2 header field as bytes go on the wire.
public struct HTTP2Header: Hashable, Sendable {
    public let name: String
    public let value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// An nghttp2 session (client or server side), fed bytes in and drained of bytes out.
///
/// Confined to one thread. Outgoing bodies are kept until nghttp2 has copied them into frames.
public final class HTTP2Session {
    /// Which side of the connection this session speaks for.
    public enum Role: Sendable { case client, server }

    let session: OpaquePointer
    /// Unowned for speed (every frame calls it): the delegate owns the connection that owns this
    /// session, so it always outlives it.
    public unowned(unsafe) var delegate: (any HTTP2SessionDelegate)?
    var bodies: [Int32: (bytes: [UInt8], offset: Int)] = [:]

    /// Creates the session, queues our SETTINGS (streams, large windows, no push) and opens the
    /// connection-level window wide so 300-byte bodies at 1000 in flight never wait for WINDOW_UPDATE.
    public init(role: Role, maxConcurrentStreams: UInt32 = 1000) throws(WireError) {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw WireError("nghttp2_session_callbacks_new failed")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        var created: OpaquePointer?
        let status = role == .client
            ? nghttp2_session_client_new(&created, callbacks, nil)
            : nghttp2_session_server_new(&created, callbacks, nil)
        guard status == 0, let created else { throw WireError("nghttp2 session creation failed (\(status))") }
        session = created
        // Unretained: the session never outlives `self` (deinit deletes it).
        nghttp2_session_set_user_data(session, Unmanaged.passUnretained(self).toOpaque())
        let settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 24),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
        ]
        _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), settings, role == .client ? 3 : 2)
        _ = nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 1 << 26)
    }

    deinit { nghttp2_session_del(session) }

    /// Queues a request; returns its stream id, or nil when the connection can take no more streams.
    public func submitRequest(headers: [HTTP2Header], body: [UInt8]) -> Int32? {
        var block = HeaderBlock()
        for header in headers { block.add(header.name, header.value) }
        return submitRequest(block, body: body)
    }

    /// Queues a request whose headers are already in `block` (reusable: the transport keeps one).
    public func submitRequest(_ block: HeaderBlock, body: [UInt8]) -> Int32? {
        let stream = block.withFields { fields, count in
            guard !body.isEmpty else { return nghttp2_submit_request(session, nil, fields, count, nil, nil) }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(), read_callback: readBody)
            return nghttp2_submit_request(session, nil, fields, count, &provider, nil)
        }
        guard stream > 0 else { return nil }
        if !body.isEmpty { bodies[stream] = (body, 0) }
        return stream
    }

    /// Queues a response on `stream`; an empty body ends the stream with the HEADERS frame, as APNs does.
    @discardableResult
    public func submitResponse(stream: Int32, headers: [HTTP2Header], body: [UInt8]) -> Bool {
        if !body.isEmpty { bodies[stream] = (body, 0) }
        var block = HeaderBlock()
        for header in headers { block.add(header.name, header.value) }
        let status = block.withFields { fields, count in
            guard !body.isEmpty else { return nghttp2_submit_response(session, stream, fields, count, nil) }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(), read_callback: readBody)
            return nghttp2_submit_response(session, stream, fields, count, &provider)
        }
        if status != 0 { bodies[stream] = nil }
        return status == 0
    }

    /// Queues GOAWAY: streams above `lastStreamID` (default: the last one the peer opened) will not be processed.
    public func submitGoAway(lastStreamID: Int32? = nil, errorCode: UInt32 = 0, debugData: [UInt8] = []) {
        let last = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, errorCode, debugData, debugData.count)
    }

    /// Queues a PING (RFC 9113 6.7) whose ACK comes back through ``HTTP2SessionDelegate/http2PingAcknowledged()``;
    /// false on a session error.
    @discardableResult
    public func submitPing() -> Bool {
        nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil) == 0
    }

    /// Feeds received bytes; false when the peer broke the protocol (the connection must close).
    public func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count) >= 0
    }

    /// Appends pending output frames to `output` until it holds `limit` bytes or nothing is pending;
    /// false on a fatal session error.
    public func drainOutput(into output: inout [UInt8], limit: Int) -> Bool {
        while output.count < limit {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            if count < 0 { return false }
            guard count > 0, let chunk else { return true }
            output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
        }
        return true
    }

    /// Whether the session still expects to read (false once both sides are done or it failed).
    public var wantsRead: Bool { nghttp2_session_want_read(session) != 0 }
    /// Whether the session has frames to send.
    public var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }
    /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS (nghttp2 assumes unlimited until its SETTINGS arrive).
    public var remoteMaxConcurrentStreams: UInt32 {
        nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
    }

    static func from(_ userData: UnsafeMutableRawPointer?) -> HTTP2Session {
        Unmanaged<HTTP2Session>.fromOpaque(userData!).takeUnretainedValue()
    }
}

// MARK: - C callbacks: copy what they need into Swift values and return at once.

private func readBody(
    _ session: OpaquePointer?, _ stream: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ flags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    let owner = HTTP2Session.from(userData)
    guard let body = owner.bodies[stream], let buffer else {
        flags?.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        return 0
    }
    let count = min(length, body.bytes.count - body.offset)
    body.bytes.withUnsafeBufferPointer { bytes in
        buffer.update(from: bytes.baseAddress! + body.offset, count: count)
    }
    if body.offset + count >= body.bytes.count {
        flags?.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        owner.bodies[stream] = nil
    } else {
        owner.bodies[stream] = (body.bytes, body.offset + count)
    }
    return count
}

private func onHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?, _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, let name, let value else { return 0 }
    HTTP2Session.from(userData).delegate?.http2Header(
        stream: frame.pointee.hd.stream_id, name: HeaderBytes(bytes: UnsafeBufferPointer(start: name, count: nameLength)),
        value: HeaderBytes(bytes: UnsafeBufferPointer(start: value, count: valueLength)))
    return 0
}

private func onDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ stream: Int32, _ data: UnsafePointer<UInt8>?, _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    HTTP2Session.from(userData).delegate?.http2Data(stream: stream, bytes: UnsafeRawBufferPointer(start: data, count: length))
    return 0
}

private func onFrameReceived(_ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?)
    -> Int32
{
    guard let frame, let delegate = HTTP2Session.from(userData).delegate else { return 0 }
    let header = frame.pointee.hd
    switch UInt32(header.type) {
    case NGHTTP2_DATA.rawValue, NGHTTP2_HEADERS.rawValue:
        if header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 { delegate.http2EndStream(stream: header.stream_id) }
    case NGHTTP2_GOAWAY.rawValue:
        let goAway = frame.pointee.goaway
        let debug = goAway.opaque_data.map { Array(UnsafeBufferPointer(start: $0, count: goAway.opaque_data_len)) } ?? []
        delegate.http2GoAway(lastStreamID: goAway.last_stream_id, errorCode: goAway.error_code, debugData: debug)
    case NGHTTP2_SETTINGS.rawValue:
        if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 { delegate.http2SettingsReceived() }
    case NGHTTP2_PING.rawValue:
        if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 { delegate.http2PingAcknowledged() }
    default: break
    }
    return 0
}

private func onStreamClose(_ session: OpaquePointer?, _ stream: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?)
    -> Int32
{
    let owner = HTTP2Session.from(userData)
    owner.bodies[stream] = nil
    owner.delegate?.http2StreamClosed(stream: stream, errorCode: errorCode)
    return 0
}
