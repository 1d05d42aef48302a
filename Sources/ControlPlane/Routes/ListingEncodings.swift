import FleetCore
import Foundation
import HTTPTypes
import Synchronization

/// Each session's listing as last encoded (``WireJSON``), so `GET /api/sessions` encodes again only the
/// sessions whose listing changed since: under load, encoding every listing was half of a GET's cost
/// (bench/ingest.sh). A `PUT`'s answer refreshes its session's entry, so the next list reuses it.
///
/// A memo of a pure function (listing -> bytes): an entry serves only an equal listing, so a race between
/// requests can cost an encoding, never a stale answer. One per service's routes. It keeps the sessions
/// of the last list only, and none when that list is over ``capacity`` (a fleet that large pays the encoding
/// rather than the memory).
final class ListingEncodings: Sendable {
    /// The most sessions kept.
    static let capacity = 1_000

    private let entries = Mutex<[SessionID: (listing: SessionListing, bytes: Data)]>([:])

    /// `listing` as JSON; refreshes its kept entry when the last list had the session.
    func encoded(_ listing: SessionListing) -> Data {
        let bytes = Self.encode(listing)
        entries.withLock { entries in
            if entries[listing.sid] != nil { entries[listing.sid] = (listing, bytes) }
        }
        return bytes
    }

    /// The body of `GET /api/sessions` (`{"sessions":[...]}`, the bytes `WireJSON.encode` writes for it),
    /// encoding only the listings not kept already; then keeps exactly these sessions.
    func sessionsBody(_ listings: [SessionListing]) -> Data {
        let kept = entries.withLock { entries in
            listings.map { listing in entries[listing.sid].flatMap { $0.listing == listing ? $0.bytes : nil } }
        }
        var parts: [Data] = []
        parts.reserveCapacity(listings.count)
        var next: [SessionID: (listing: SessionListing, bytes: Data)] = [:]
        for (listing, bytes) in zip(listings, kept) {
            let part = bytes ?? Self.encode(listing)
            parts.append(part)
            if listings.count <= Self.capacity { next[listing.sid] = (listing, part) }
        }
        entries.withLock { $0 = next }
        var body = Data()
        body.reserveCapacity(parts.reduce(16) { $0 + $1.count + 1 })
        body.append(contentsOf: "{\"sessions\":[".utf8)
        for (index, part) in parts.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(part)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    /// As ``HTTPResponse/json(_:status:)`` encodes: a listing (strings, flags, finite numbers) always encodes.
    private static func encode(_ listing: SessionListing) -> Data {
        HTTPResponse.jsonBody(listing)
    }
}
