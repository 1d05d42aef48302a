/// The names and sizes of a sealed alert that the server (Sealing) and the phone (its Notification Service
/// Extension) must agree on (docs/sealed-alerts.md). One definition for both sides.
public enum SealedAlertFormat {
    /// HPKE's `info`: the purpose and format version; a box made for anything else never opens as an alert.
    public static let info: [UInt8] = Array("lfg alert v1".utf8)
    /// The top-level key of the push that holds `{"kid", "box"}`.
    public static let payloadKey = "lfgSeal"
    /// The sender's ephemeral P-256 point at the start of the box (uncompressed).
    public static let encBytes = 65
    /// The AES-256-GCM tag at the end of the box.
    public static let tagBytes = 16
    /// How many bytes of SHA-256(key) name it.
    public static let keyIDBytes = 8

    /// The key id (`kid`) from SHA-256 of the key's 65-byte point: its first ``keyIDBytes`` as lowercase hex.
    public static func keyID(fromSHA256 digest: some Sequence<UInt8>) -> String {
        digest.prefix(keyIDBytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 0x10 ? "0" + hex : hex
        }.joined()
    }
}
