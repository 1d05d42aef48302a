/// How a session's title is shortened on the fleet card, so that every push of the card fits APNs'
/// limits (4096 bytes to a device, 5120 as a broadcast) and ActivityKit's 4 KB for local updates.
///
/// The reducer both writers run (``FleetReducer``) applies it to every row, so the app and the server
/// show the same cut and compare the same states. The budget is in JSON-encoded bytes, not characters:
/// a quote costs 2, a control character 6, an emoji cluster 25 or more. With ``FleetReducer/maxRows``
/// rows of at most ``maximumRowBytes`` each, the content state stays near 2.3 KB, leaving the rest of a push
/// (start's attributes and alert, a channel id up to 1024 characters) room to spare.
public enum CardTitle {
    /// The most a row's title may take once JSON-encoded (without its quotes), ellipsis included.
    public static let maximumEncodedBytes = 480
    /// The most a row's sid and title may take together once JSON-encoded: a long sid (up to 200 bytes
    /// under the id rule, 400 once its quotes are escaped) leaves its title less room.
    public static let maximumRowBytes = 720
    /// What marks a shortened title.
    public static let ellipsis: Character = "…"

    /// The title a row for session `sid` shows: `title` fitted to what the sid leaves of ``maximumRowBytes``,
    /// at most ``maximumEncodedBytes``.
    public static func fitted(_ title: String, besideSid sid: SessionID) -> String {
        fitted(title, toEncodedBytes: min(maximumEncodedBytes, max(0, maximumRowBytes - encodedBytes(sid.rawValue))))
    }

    /// `title` itself when it fits `budget` encoded bytes; else its longest prefix of whole characters
    /// that fits with ``ellipsis`` appended. Deterministic: the same title always gives the same text.
    public static func fitted(_ title: String, toEncodedBytes budget: Int = maximumEncodedBytes) -> String {
        if encodedBytes(title) <= budget { return title }
        let room = max(0, budget - encodedBytes(ellipsis))
        var kept = ""
        var used = 0
        for character in title {
            let cost = encodedBytes(character)
            if used + cost > room { break }
            used += cost
            kept.append(character)
        }
        kept.append(ellipsis)
        return kept
    }

    /// The bytes `text` takes inside a JSON string, counting every escape any encoder might use
    /// (a `/` as `\/`, U+2028 and U+2029 as `\uXXXX`), so the count is never short.
    public static func encodedBytes(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + encodedBytes($1) }
    }

    static func encodedBytes(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + encodedBytes($1) }
    }

    static func encodedBytes(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0x22, 0x5C, 0x2F: 2  // \" \\ \/
        case 0x08, 0x09, 0x0A, 0x0C, 0x0D: 2  // \b \t \n \f \r
        case 0x00..<0x20, 0x2028, 0x2029: 6  // \uXXXX
        case 0x00..<0x80: 1
        case 0x80..<0x800: 2
        case 0x800..<0x10000: 3
        default: 4
        }
    }
}
