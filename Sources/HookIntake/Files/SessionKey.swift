/// A session id as a file name in `$LFG_HOME` (inbox folder, session record, agent record) and as the
/// doorbell's ring: kept when it is plain (Claude's and Codex's ids are UUIDs), hex-encoded otherwise.
public enum SessionKey {
    /// The key of `sid`: the id itself when it is 1-128 ASCII letters, digits, `-` or `_`; otherwise
    /// `x` followed by the hex of its first 100 UTF-8 bytes.
    public static func of(_ sid: String) -> String {
        let plain = sid.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_")
        }
        if plain, !sid.isEmpty, sid.utf8.count <= 128 { return sid }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = [UInt8(ascii: "x")]
        for byte in sid.utf8.prefix(100) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
