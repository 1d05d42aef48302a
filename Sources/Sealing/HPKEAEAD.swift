/// The AEADs the key schedule knows. Alerts use only ``aes256GCM``; ``aes128GCM`` exists so RFC 9180's
/// printed P-256 vector (Appendix A.3, AES-128-GCM) checks our KEM and key schedule end to end.
package enum HPKEAEAD: Sendable {
    case aes128GCM
    case aes256GCM

    /// aead_id.
    var id: UInt16 {
        switch self {
        case .aes128GCM: 0x0001
        case .aes256GCM: 0x0002
        }
    }

    /// Nk.
    var keyBytes: Int {
        switch self {
        case .aes128GCM: 16
        case .aes256GCM: 32
        }
    }
}
