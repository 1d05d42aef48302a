import FleetCore
import Foundation

/// The one JSON encoding LFG writes: API responses and events, the app's request bodies, the hook's
/// reports, APNs payloads, stored values and `lfg` output. Sorted keys, so the same value is the same
/// bytes (tests and logs compare them), and slashes unescaped (paths and URLs read as written).
public enum WireJSON {
    /// A fresh Foundation encoder with the settings: the reference ``encode(_:)`` is tested against
    /// (JSONEncoder is not Sendable, so each caller gets its own).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` as JSON bytes: the bytes ``encoder()`` writes, by the value's own ``WireJSONWriter`` code when
    /// it has some (``WireJSONWritable``: the hot path's types), else by ``WireJSONEncoder`` (several times
    /// faster than ``encoder()``).
    public static func encode(_ value: some Encodable) throws -> Data {
        // One dynamic cast for the whole value, none per nested value.
        if let writable = value as? any WireJSONWritable {
            var writer = WireJSONWriter()
            try writable.write(to: &writer)
            return Data(writer.bytes)
        }
        return try WireJSONEncoder.encode(value)
    }
}
