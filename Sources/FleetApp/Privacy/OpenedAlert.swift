import FleetCore

/// How an opened sealed alert reads in the notification: the session's title, then the question with the
/// answers offered on their own line (the actions themselves are the question kind's category's).
public struct OpenedAlert: Hashable, Sendable {
    public var title: String
    public var body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    public init(_ words: AlertWords) {
        title = words.title
        body = words.options.isEmpty ? words.body : words.body + "\n" + words.options.joined(separator: " · ")
    }
}
