/// `lfg push`: send one push to a token and print what APNs answered
public struct PushCommand: Command {
    public static let name = "push"
    public static let summary = "send one push to a token and print what APNs answered"
    public static let usage = "Usage: lfg push --env ENV --token HEX ..."

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg push' is not built yet")
    }
}
