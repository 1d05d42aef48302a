/// The retired per-session card type, kept declared only so its cards can be found and ended.
///
/// A device upgrading from the per-session build can carry up to five of these, and ActivityKit can
/// only enumerate a type the app still declares. Its `ContentState` is deliberately empty and decodes
/// from anything an old build wrote. Delete once no installed build is old enough to have started one
/// (they self-expire within hours: a calendar question, not a technical one).
public struct LFGSessionAttributes: Hashable, Sendable, Codable {
    /// The name ActivityKit knows the old type by.
    public static let typeName = "LFGSessionAttributes"

    /// Empty: nothing of an old card is ever shown again, it is only ended.
    public struct ContentState: Hashable, Sendable, Codable {
        public init() {}
        /// Accepts any payload (every old key is ignored), so decoding an old card never throws.
        public init(from decoder: any Decoder) throws {}
        public func encode(to encoder: any Encoder) throws {
            _ = encoder.container(keyedBy: NoKeys.self)
        }
    }

    public init() {}
    /// Accepts any payload: the old attributes' keys are ignored.
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: NoKeys.self)
    }

    enum NoKeys: CodingKey {}
}
