#if canImport(Glibc)
internal import Glibc
#endif

/// The `Date` field's text (RFC 9110 IMF-fixdate, `Wed, 02 Dec 2026 04:50:00 GMT`), formatted at most
/// once per second.
struct HTTPDate {
    private(set) var text = ""
    private var second: time_t = -1

    init() { refresh() }

    /// Reformats when the second changed.
    mutating func refresh() {
        var now = time(nil)
        guard now != second else { return }
        second = now
        var parts = tm()
        gmtime_r(&now, &parts)
        text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let count = strftime(buffer.baseAddress!, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
        }
    }
}
