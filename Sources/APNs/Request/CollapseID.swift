/// The `apns-collapse-id` header: pushes sharing it merge into one visible notification.
public struct CollapseID: Hashable, Sendable, CustomStringConvertible {
    /// APNs answers `400 BadCollapseId` above this many bytes.
    public static let maximumBytes = 64

    public let rawValue: String

    /// Validates the length; throws when it is empty or over 64 bytes of UTF-8.
    public init(_ rawValue: String) throws(PushRequestError) {
        let count = rawValue.utf8.count
        guard count > 0, count <= Self.maximumBytes else { throw .badCollapseID(bytes: count) }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// The `apns-id` header: a canonical lowercase UUID (8-4-4-4-12) that APNs echoes back.
public struct APNsID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Validates the 8-4-4-4-12 hex shape and lowercases it; throws `.badAPNsID` otherwise.
    public init(_ text: String) throws(PushRequestError) {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        let lengths = groups.map(\.utf8.count)
        let isHex = text.utf8.allSatisfy { byte in
            byte == 0x2D || (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
        guard lengths == [8, 4, 4, 4, 12], isHex else { throw .badAPNsID(text) }
        rawValue = text.lowercased()
    }

    public var description: String { rawValue }
}
