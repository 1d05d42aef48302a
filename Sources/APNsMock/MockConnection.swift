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
        pending[stream]?.body.append(contentsOf: bytes)
    }

    func http2EndStream(stream: Int32) {
        guard let request = pending.removeValue(forKey: stream) else { return }
        if let last = goAwayLastStream, stream > last { return }
        if request.path.hasPrefix(MockControl.prefix) {
            let (status, body) = MockControl.handle(request, state: state)
            respond(stream: stream, status: status, apnsID: nil, body: body)
            return
        }
        let (record, action) = state.handle(request, connection: number)
        switch action {
        case .dropConnection:
            connection.close(reason: "dropped on purpose (fault)")
        case .respond, .respondThenGoAway:
            var body: [UInt8] = []
            if let reason = record.reason {
                var object: [String: Any] = ["reason": reason.rawValue]
                if record.status == 410 { object["timestamp"] = Int64(record.receivedAt * 1000) }
                body = Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
            }
            respond(stream: stream, status: record.status, apnsID: record.apnsID, body: body)
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

    private func respond(stream: Int32, status: Int, apnsID: String?, body: [UInt8]) {
        var headers = [HTTP2Header(":status", String(status))]
        if let apnsID { headers.append(HTTP2Header("apns-id", apnsID)) }
        if !body.isEmpty { headers.append(HTTP2Header("content-type", "application/json")) }
        connection.session.submitResponse(stream: stream, headers: headers, body: body)
    }
}
