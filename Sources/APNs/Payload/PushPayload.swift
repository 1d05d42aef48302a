import Foundation

/// A push's JSON body, checked against APNs' size limit when it is made.
public struct PushPayload: Hashable, Sendable {
    /// APNs answers `413 PayloadTooLarge` above this for every device push but VoIP.
    public static let maximumBytes = 4096

    /// The encoded JSON.
    public let bytes: [UInt8]

    /// Wraps already-encoded JSON; throws when it is empty or over ``maximumBytes``.
    public init(bytes: [UInt8]) throws(PushRequestError) {
        guard !bytes.isEmpty else { throw .payloadEmpty }
        guard bytes.count <= Self.maximumBytes else {
            throw .payloadTooLarge(bytes: bytes.count, limit: Self.maximumBytes)
        }
        self.bytes = bytes
    }

    /// Encodes `value` with default strategies (ActivityKit decodes with defaults) and sorted keys.
    public init(encoding value: some Encodable) throws(PushRequestError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw .payloadNotEncodable(String(describing: error))
        }
        try self.init(bytes: Array(data))
    }

    /// The body as text (for `lfg push` and the mock's records, never for logs of real pushes).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
