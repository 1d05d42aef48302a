/// `lfg apns-mock`: run a local APNs stand-in speaking HTTP/2
public struct APNsMockCommand: Command {
    public static let name = "apns-mock"
    public static let summary = "run a local APNs stand-in speaking HTTP/2"
    public static let usage = "Usage: lfg apns-mock [--port N] [--tls]"

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        arguments = ArgumentList([])
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        throw CommandFailure("'lfg apns-mock' is not built yet")
    }
}
