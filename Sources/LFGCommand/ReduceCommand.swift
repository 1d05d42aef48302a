import FleetCore
import Foundation
import HTTPTypes

/// `lfg reduce`: reads a reduction request (JSON, stdin) and prints the result (JSON, stdout).
public struct ReduceCommand: Command {
    public static let name = "reduce"
    public static let summary = "reduce sessions to the fleet card's content (JSON in, JSON out)"
    public static let usage = """
        Usage: lfg reduce < request.json

        Reads {"now", "sessions": [{"sid", ...report}], "hiddenDirs"?, "previousSince"?, "downHosts"?}
        on stdin and prints {"contentState", "since", "activeTotal", "trustworthy", "relevanceScore", "accent"}.
        Bad input exits 1 with a one-line reason naming the field.
        """

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {}

    public func run(_ context: CommandContext) async throws -> Int32 {
        let response = try Self.reduce(context.readInput())
        context.write(String(decoding: try WireJSON.encode(response), as: UTF8.self) + "\n")
        return 0
    }

    /// Decodes a request, reduces it, or throws a failure that names what is wrong.
    static func reduce(_ input: Data) throws(CommandFailure) -> ReduceResponse {
        guard !input.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            throw CommandFailure("no input: pipe a JSON reduction request to stdin")
        }
        do {
            return FleetReducer.answer(try JSONDecoder().decode(ReduceRequest.self, from: input))
        } catch let error as DecodingError {
            throw CommandFailure("bad request: \(InputError(error))")
        } catch {
            throw CommandFailure("bad request: \(error)")
        }
    }
}
