/// Looks a name up by its raw UTF-8 bytes, without building a String (the parser's hot path).
///
/// Built from the schema's own spellings (`DecisionEvent`, `LogField`, `PushAction` raw values), so
/// the diagnosis never spells a name itself. Names are bucketed by length; a lookup compares bytes
/// only against the few names of the same length.
struct ByteNames<Value: Sendable>: Sendable {
    private var buckets: [[(bytes: [UInt8], value: Value)]] = []

    init(_ names: [(String, Value)]) {
        for (name, value) in names {
            let bytes = Array(name.utf8)
            while buckets.count <= bytes.count { buckets.append([]) }
            buckets[bytes.count].append((bytes, value))
        }
    }

    func value(for raw: UnsafeRawBufferPointer) -> Value? {
        guard raw.count < buckets.count else { return nil }
        for candidate in buckets[raw.count] where Self.equals(raw, candidate.bytes) { return candidate.value }
        return nil
    }

    private static func equals(_ raw: UnsafeRawBufferPointer, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { $0.elementsEqual(raw) }
    }
}
