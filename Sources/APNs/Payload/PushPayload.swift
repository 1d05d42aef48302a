import Foundation
import HTTPTypes

/// A push's JSON body. Its size is checked against its destination's limit when the ``PushRequest``
/// is made (``PushDestination/maximumPayloadBytes``), the one place that rule lives.
public struct PushPayload: Hashable, Sendable {
    /// APNs answers `413 PayloadTooLarge` above this for every device push but VoIP (reference 1.6).
    public static let maximumBytes = 4096
    /// APNs answers `413 PayloadTooLarge` above this for a broadcast (reference 1.6, 5.5).
    public static let broadcastMaximumBytes = 5120

    /// The encoded JSON.
    public let bytes: [UInt8]

    /// Wraps already-encoded JSON; throws when it is empty.
    public init(bytes: [UInt8]) throws(PushRequestError) {
        guard !bytes.isEmpty else { throw .payloadEmpty }
        self.bytes = bytes
    }

    /// Encodes `value` as ``HTTPTypes/WireJSON`` does: default strategies (ActivityKit decodes with
    /// defaults) and sorted keys.
    public init(encoding value: some Encodable) throws(PushRequestError) {
        let data: Data
        do {
            data = try WireJSON.encode(value)
        } catch {
            throw .payloadNotEncodable(String(describing: error))
        }
        try self.init(bytes: Array(data))
    }

    /// The body as text (for `lfg push` and the mock's records, never for logs of real pushes).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
