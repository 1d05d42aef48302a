/// `lfg serve`: run the control plane (HTTP API, watcher, dashboard)
public struct ServeCommand: Command {
    public static let name = "serve"
    public static let summary = "run the control plane (HTTP API, watcher, dashboard)"
    public static let usage = "Usage: lfg serve [--port N] [--bind ADDR] [--demo]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg serve' is not built yet")
    }
}
