import APNs
import Foundation
import HTTP2Wire

/// One accepted HTTP/2 connection of the stand-in: gathers each stream's request, answers it.
/// Confined to the server's loop thread.
final class MockConnection: HTTP2SessionDelegate {
    let number: Int
    let connection: HTTP2Connection
    private let state: MockState
    private var pending: [Int32: MockRequest] = [:]
    /// Set once GOAWAY went out: streams above it are not answered.
    private var goAwayLastStream: Int32?
    /// Set by a `goSilentAt` fault: nothing is read or written on this connection again.
    var isSilent: Bool { connection.isFrozen }

    init(number: Int, stream: any ByteStream, state: MockState) throws(WireError) {
        self.number = number
        self.state = state
        connection = HTTP2Connection(stream: stream, session: try HTTP2Session(role: .server))
        connection.session.delegate = self
    }

    func http2Header(stream: Int32, name: HeaderBytes, value: HeaderBytes) {
        if name.equals(":method") {
            pending[stream, default: Self.emptyRequest].method = value.string
        } else if name.equals(":path") {
            pending[stream, default: Self.emptyRequest].path = value.string
        } else if name.bytes.first != UInt8(ascii: ":") {
            pending[stream, default: Self.emptyRequest].add(name: name.string, value: value.string)
        }
    }

    static let emptyRequest = MockRequest(method: "", path: "", headers: Dictionary(minimumCapacity: 8), body: [])

    func http2Data(stream: Int32, bytes: UnsafeRawBufferPointer) {
        guard !isSilent else { return }
        pending[stream]?.body.append(contentsOf: bytes)
    }

    func http2EndStream(stream: Int32) {
        guard !isSilent, let request = pending.removeValue(forKey: stream) else { return }
        if let last = goAwayLastStream, stream > last { return }
        if request.path.hasPrefix(MockControl.prefix) {
            let (status, body) = MockControl.handle(request, state: state)
            respond(stream: stream, status: status, headers: [:], body: body)
            return
        }
        let (record, action) = state.handle(request, connection: number)
        switch action {
        case .dropConnection:
            connection.close(reason: "dropped on purpose (fault)")
        case .goSilent:
            connection.isFrozen = true
        case .respond, .respondThenGoAway:
            respond(stream: stream, status: record.status, headers: record.responseHeaders, body: record.responseBody)
            if action == .respondThenGoAway {
                goAwayLastStream = stream
                pending = pending.filter { $0.key <= stream }
                connection.session.submitGoAway(lastStreamID: stream, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))
            }
        }
    }

    func http2StreamClosed(stream: Int32, errorCode: UInt32) { pending[stream] = nil }
    func http2GoAway(lastStreamID: Int32, errorCode: UInt32, debugData: [UInt8]) {}
    func http2SettingsReceived() {}

    private func respond(stream: Int32, status: Int, headers: [String: String], body: [UInt8]) {
        var fields = [HTTP2Header(":status", String(status))]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.append(HTTP2Header(name, value)) }
        if !body.isEmpty { fields.append(HTTP2Header("content-type", "application/json")) }
        connection.session.submitResponse(stream: stream, headers: fields, body: body)
    }
}
