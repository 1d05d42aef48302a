/// Decoding helpers for the wire types: a missing key (or a null) takes the default.
///
/// Why lenient: an in-flight Live Activity started by an older build is decoded by the newer widget,
/// and a strict decode would throw rather than render. A present key of the wrong type still throws,
/// so the server can name the bad field.
extension KeyedDecodingContainer {
    func decode<T: Decodable>(_ key: Key, default defaultValue: @autoclosure () -> T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? defaultValue()
    }
}
