/// One `lfg` subcommand: it parses and validates its arguments, then runs one library function.
///
/// Parsing never performs I/O, so tests check it apart from running. `run` returns the process
/// exit status; it throws ``CommandFailure`` for an expected failure (exit 1, one line on stderr).
public protocol Command: Sendable {
    /// The words that select the command, e.g. `"serve"` or `"hooks install"`.
    static var name: String { get }
    /// One line for `lfg --help`.
    static var summary: String { get }
    /// The full usage text for `lfg <name> --help`, without a trailing newline.
    static var usage: String { get }
    /// Parses and validates the arguments after the command's name; throws a usage error naming the problem.
    init(parsing arguments: inout ArgumentList) throws(UsageError)
    /// Runs the command; returns the exit status.
    func run(_ context: CommandContext) async throws -> Int32
}

/// A usage error: exit status 2, the message on stderr.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An expected failure of a command that parsed fine: exit status 1, the message on stderr.
public struct CommandFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
