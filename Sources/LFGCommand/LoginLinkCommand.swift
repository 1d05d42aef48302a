import ControlPlane

/// `lfg login-link`: asks the running `lfg serve` for a new one-time dashboard login URL.
public struct LoginLinkCommand: Command {
    public static let name = "login-link"
    public static let summary = "print a new one-time dashboard login URL from the running lfg serve"
    public static let usage = """
        Usage: lfg login-link [--port N]

        Asks the lfg serve on 127.0.0.1:N (default 8766) for a new one-time login URL and prints it; opening
        it signs a browser into the dashboard (the link works once, for 15 minutes). No restart needed.
        Authenticates with LFG_AUTH_TOKEN or $LFG_HOME/auth-token, as the hooks do.
        """

    public var port: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        struct Answer: Decodable { var path: String }
        let answer = try await OwnerCall(port: port, context: context).send("POST", APIPaths.loginLinks).decode(Answer.self)
        context.write("http://127.0.0.1:\(port)" + answer.path + "\n")
        return 0
    }
}
