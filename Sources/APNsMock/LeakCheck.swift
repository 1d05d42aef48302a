import FleetCore

/// The stand-in's privacy check (contract 8.3): words from a test's fixture (session titles, steps, paths,
/// question texts, options, answers) that no push may carry. With it on, every device push and broadcast is
/// searched; a push carrying any of them is recorded as a ``MockLeak`` (`GET /mock/leaks`, and a `LEAK` line
/// from `lfg apns-mock`), so a test or the demo fails on it.
///
/// The search reads every string of the JSON body after decoding (so a `/` written `\/`, or a character written
/// `\u00e9`, still matches) and every object key; a body that is not JSON is searched as text.
public struct LeakCheck: Hashable, Sendable {
    /// The words, as given, without empty ones.
    public let words: [String]

    public init(words: [String]) {
        var seen = Set<String>()
        self.words = words.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// From a fixture file's text: a JSON array of strings, or `{"words": [...]}`.
    public init(fixture text: String) throws(LeakCheckError) {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch { throw LeakCheckError("the fixture is not JSON: \(error)") }
        guard let list = (value["words"] ?? value).arrayValue else {
            throw LeakCheckError("the fixture must be a JSON array of strings, or {\"words\": [...]}")
        }
        let words = list.compactMap(\.stringValue)
        guard words.count == list.count else { throw LeakCheckError("every fixture word must be a string") }
        self.init(words: words)
    }

    /// The leak in one record: nil for a channel-management call (it carries no payload) or a clean push.
    public func leak(in record: MockRecord) -> MockLeak? {
        guard record.kind != .channelManagement else { return nil }
        let found = leaks(in: record.body)
        guard !found.isEmpty else { return nil }
        let target = record.kind == .device ? String(record.token.prefix(8)) : String((record.channel ?? "").prefix(8))
        return MockLeak(sequence: record.sequence, kind: record.kind, target: target, words: found)
    }

    /// The fixture's words `body` carries, in fixture order.
    public func leaks(in body: [UInt8]) -> [String] {
        guard !words.isEmpty else { return [] }
        var texts: [String] = []
        if let value = try? JSONParser.parse(bytes: body) {
            Self.collectStrings(value, into: &texts)
        } else {
            texts = [String(decoding: body, as: UTF8.self)]
        }
        return words.filter { word in texts.contains { $0.contains(word) } }
    }

    static func collectStrings(_ value: JSONValue, into texts: inout [String]) {
        switch value {
        case .string(let text): texts.append(text)
        case .array(let elements): for element in elements { collectStrings(element, into: &texts) }
        case .object(let object):
            for member in object.members {
                texts.append(member.key)
                collectStrings(member.value, into: &texts)
            }
        case .null, .bool, .number: break
        }
    }
}

/// A fixture the leak check cannot use.
public struct LeakCheckError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One push that carried fixture words.
public struct MockLeak: Hashable, Sendable {
    /// The record's sequence number.
    public var sequence: Int
    public var kind: MockRecord.Kind
    /// The token's or channel's first 8 characters.
    public var target: String
    /// The fixture words it carried.
    public var words: [String]

    /// One line for stderr: which push, and how many words (never the words themselves in full).
    public var summary: String {
        "LEAK push #\(sequence) (\(kind.rawValue) \(target)…) carried \(words.count) fixture word(s), first '\(words.first.map { String($0.prefix(12)) } ?? "")'"
    }
}
