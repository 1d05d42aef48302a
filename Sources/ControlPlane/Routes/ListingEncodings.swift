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
            if let index = entries.index(forKey: listing.sid) { entries.values[index] = (listing, bytes) }
        }
        return bytes
    }

    /// The body of `GET /api/sessions` (`{"sessions":[...]}`, the bytes `WireJSON.encode` writes for it),
    /// encoding only the listings not kept already; then keeps exactly these sessions.
    ///
    /// One pass under the lock, into one buffer: kept entries are updated in place, not rebuilt into a new
    /// dictionary per list, and no `Data` is appended to piece by piece (both showed in bench/ingest.sh's
    /// GET profile).
    func sessionsBody(_ listings: [SessionListing]) -> Data {
        let isKept = listings.count <= Self.capacity
        var body: [UInt8] = []
        entries.withLock { entries in
            if !isKept { entries.removeAll() }
            body.reserveCapacity(16 + listings.count * (entries.first?.value.bytes.count ?? 256) * 5 / 4)
            body.append(contentsOf: Self.bodyStart)
            for (index, listing) in listings.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                if let kept = entries.index(forKey: listing.sid), entries.values[kept].listing == listing {
                    entries.values[kept].bytes.withUnsafeBytes { body.append(contentsOf: $0) }
                    continue
                }
                let bytes = Self.encode(listing)
                bytes.withUnsafeBytes { body.append(contentsOf: $0) }
                if isKept { entries[listing.sid] = (listing, bytes) }
            }
            body.append(contentsOf: Self.bodyEnd)
            // Every listed session is kept now; more entries means some were not listed this time.
            if entries.count > listings.count {
                let listed = Set(listings.map(\.sid))
                entries = entries.filter { listed.contains($0.key) }
            }
        }
        return Data(body)
    }

    private static let bodyStart = Array("{\"sessions\":[".utf8)
    private static let bodyEnd = Array("]}".utf8)

    /// As ``HTTPResponse/json(_:status:)`` encodes: a listing (strings, flags, finite numbers) always encodes.
    private static func encode(_ listing: SessionListing) -> Data {
        HTTPResponse.jsonBody(listing)
    }
}
