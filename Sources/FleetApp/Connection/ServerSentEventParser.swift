/// One event of a `text/event-stream` (the WHATWG "server-sent events" format `GET /api/events` speaks).
public struct ServerSentEvent: Hashable, Sendable {
    /// The `event:` field; `"message"` when the server named none.
    public var name: String
    /// The `data:` lines, joined with `\n`.
    public var data: String
    /// The last `id:` the stream set, if any.
    public var lastEventID: String?

    public init(name: String, data: String, lastEventID: String? = nil) {
        self.name = name
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Turns the bytes of an event stream, in chunks cut anywhere, into events and comments.
///
/// Incremental and pure: ``feed(_:)`` takes whatever arrived and returns what it completed; a partial line
/// waits for the next chunk. Lines end in LF, CRLF or CR (a CR at a chunk's end is held until the next
/// byte shows whether an LF follows). A leading byte-order mark is dropped. A line longer than
/// ``maximumLineBytes`` is a broken stream: the parser says so instead of buffering without end.
public struct ServerSentEventParser: Sendable {
    /// What one chunk completed, in order.
    public enum Output: Hashable, Sendable {
        /// A dispatched event (a blank line after at least one `data:` line).
        case event(ServerSentEvent)
        /// A comment line (`: keepalive`): proof the connection is alive, nothing else.
        case comment(String)
        /// `retry:` asked for this reconnection delay, in milliseconds.
        case retry(milliseconds: Int)
    }

    /// Why the stream cannot be read further.
    public enum Failure: Error, Hashable, Sendable {
        /// A line ran past ``maximumLineBytes`` without ending.
        case lineTooLong(bytes: Int)
    }

    /// The longest line kept (1 MiB): far above any session listing, far below a phone's memory.
    public static let maximumLineBytes = 1 << 20

    var line: [UInt8] = []
    var pendingCR = false
    var atStreamStart = true
    var eventName = ""
    var dataLines: [String] = []
    var hasData = false
    var lastEventID: String?

    public init() {}

    /// Parses `bytes`, returning every event, comment and retry they completed.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [Output] {
        var outputs: [Output] = []
        for byte in bytes {
            if pendingCR {
                pendingCR = false
                if byte == 0x0A { continue }  // CRLF: the CR already ended the line
            }
            switch byte {
            case 0x0A:
                endLine(into: &outputs)
            case 0x0D:
                endLine(into: &outputs)
                pendingCR = true
            default:
                guard line.count < Self.maximumLineBytes else { throw .lineTooLong(bytes: line.count + 1) }
                line.append(byte)
            }
        }
        return outputs
    }

    mutating func endLine(into outputs: inout [Output]) {
        var text = String(decoding: line, as: UTF8.self)
        line.removeAll(keepingCapacity: true)
        if atStreamStart {
            atStreamStart = false
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        }
        if text.isEmpty {
            dispatch(into: &outputs)
            return
        }
        if text.hasPrefix(":") {
            outputs.append(.comment(String(text.dropFirst()).trimmingLeadingSpace()))
            return
        }
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        switch field {
        case "event": eventName = String(value)
        case "data":
            dataLines.append(String(value))
            hasData = true
        case "id" where !value.contains("\u{0}"): lastEventID = String(value)
        case "retry":
            if let milliseconds = Int(value), milliseconds >= 0, value.allSatisfy(\.isASCII) {
                outputs.append(.retry(milliseconds: milliseconds))
            }
        default: break  // unknown fields are ignored, as the format requires
        }
    }

    mutating func dispatch(into outputs: inout [Output]) {
        defer {
            eventName = ""
            dataLines = []
            hasData = false
        }
        guard hasData else { return }
        let name = eventName.isEmpty ? "message" : eventName
        outputs.append(.event(ServerSentEvent(name: name, data: dataLines.joined(separator: "\n"), lastEventID: lastEventID)))
    }
}

extension String {
    fileprivate func trimmingLeadingSpace() -> String { first == " " ? String(dropFirst()) : self }
}
