/// `lfg simulate`: run the deterministic lifecycle simulator
public struct SimulateCommand: Command {
    public static let name = "simulate"
    public static let summary = "run the deterministic lifecycle simulator"
    public static let usage = "Usage: lfg simulate [--scenario NAME|all] [--seed N] [--without GUARD]... [--json] [--list-scenarios] [--list-guards]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg simulate' is not built yet")
    }
}
