import ControlPlane
import Foundation
import HTTPClient
import StoreSQLite

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
        port = try arguments.integer("--port", in: 1...65535) ?? ServeCommand.defaultPort
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let config: ServerConfig
        do { config = try ServerConfig.load(environment: context.environment) } catch {
            throw CommandFailure("\(error)")
        }
        let tokenFile = config.home + "/" + HomeFiles.authToken
        guard let token = config.authToken
            ?? (try? String(contentsOfFile: tokenFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        else {
            throw CommandFailure("no token: set LFG_AUTH_TOKEN or start lfg serve once so it writes \(tokenFile)")
        }
        let base = "http://127.0.0.1:\(port)"
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient().send(HTTPClientRequest(
                method: "POST", url: base + APIPaths.loginLinks, headers: [("Authorization", "Bearer \(token)")]))
        } catch {
            throw CommandFailure("no lfg serve answers on \(base) (\(error)); start it, or pass its --port")
        }
        struct Answer: Decodable { var path: String }
        guard response.status == 200, let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else {
            let text = String(decoding: response.body, as: UTF8.self)
            throw CommandFailure("lfg serve on \(base) refused (HTTP \(response.status)): \(text)")
        }
        context.write(base + answer.path + "\n")
        return 0
    }
}
