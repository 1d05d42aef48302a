/// `lfg diagnose`: answer from the decision log why a card went stale
public struct DiagnoseCommand: Command {
    public static let name = "diagnose"
    public static let summary = "answer from the decision log why a card went stale"
    public static let usage = "Usage: lfg diagnose [--log FILE] [--json]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg diagnose' is not built yet")
    }
}
