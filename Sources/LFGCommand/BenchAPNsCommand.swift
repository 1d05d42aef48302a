/// `lfg bench apns`: measure push throughput against an HTTP/2 endpoint
public struct BenchAPNsCommand: Command {
    public static let name = "bench apns"
    public static let summary = "measure push throughput against an HTTP/2 endpoint"
    public static let usage = "Usage: lfg bench apns --url URL [--count N] [--concurrency C] [--ca-file F]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg bench apns' is not built yet")
    }
}
