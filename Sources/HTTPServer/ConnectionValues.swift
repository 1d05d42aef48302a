internal import CMicroHTTPD
internal import CMicroHTTPDShims
import Foundation
import HTTPTypes

/// Reads a connection's request headers, query arguments and peer address out of libmicrohttpd.
enum ConnectionValues {
    /// Collects `(key, value)` pairs of one kind; used through an `Unmanaged` pointer from the C iterator.
    private final class Collector {
        var pairs: [(String, String)] = []
    }

    /// Header fields with lower-cased names; repeated fields are joined with ", ".
    static func headers(of connection: OpaquePointer) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in pairs(of: connection, kind: .HEADER_KIND) {
            let key = name.lowercasedHTTPFieldName
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        return headers
    }

    /// Percent-decoded query arguments (the server keeps libmicrohttpd from decoding, see `shims.c`; text
    /// that does not decode to UTF-8 is kept as sent); a repeated name keeps its last value.
    static func query(of connection: OpaquePointer) -> [String: String] {
        var query: [String: String] = [:]
        for (name, value) in pairs(of: connection, kind: .GET_ARGUMENT_KIND) { query[decoded(name)] = decoded(value) }
        return query
    }

    /// `text` percent-decoded, or as sent when that is not UTF-8.
    static func decoded(_ text: String) -> String {
        // Most paths have nothing to decode, and Foundation's decoding cost ~2% of the server's time.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return text.removingPercentEncoding ?? text
    }

    /// The peer's address as text, when libmicrohttpd knows it.
    static func peerAddress(of connection: OpaquePointer) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            guard let base = buffer.baseAddress, lfg_mhd_peer_address(connection, base, buffer.count) == 1 else {
                return nil
            }
            return String(cString: base)
        }
    }

    private static func pairs(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
        let collector = Collector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(connection, kind, collectPair, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.pairs
    }

    private static let collectPair: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return .YES }
        let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
        collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
        return .YES
    }
}
