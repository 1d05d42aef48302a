import ControlPlane
import FleetCore
import Foundation

/// `lfg accounts create NAME`: a new account on the running `lfg serve`, and its token, printed once.
public struct AccountsCreateCommand: Command {
    public static let name = "accounts create"
    public static let summary = "make an account on the running lfg serve and print its token (once)"
    public static let usage = """
        Usage: lfg accounts create NAME [--port N]

        Asks the lfg serve on 127.0.0.1:N (default 8766), with the install owner's token, for a new account
        NAME (1 to 40 of a-z, 0-9, '-', '_'). Prints the account's bearer token: it is shown this once and
        only its hash is kept. Whoever holds it sees and changes only that account's sessions, hosts,
        devices, questions, cards and log, through the same API; other accounts' ids are 404s to it.
        """

    public var port: Int
    public var accountName: String

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
        guard let accountName = arguments.positional() else {
            throw UsageError("name the account to make: lfg accounts create NAME")
        }
        self.accountName = accountName
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        struct Body: Encodable { var name: String }
        let created = try await OwnerCall(port: port, context: context)
            .send("POST", APIPaths.accounts, json: Body(name: accountName)).decode(CreatedAccount.self)
        context.write(
            "account \(created.account.name) made; its token (shown once, keep it secret):\n\(created.token)\n")
        return 0
    }
}

/// `lfg accounts list`: every account, revoked ones marked (never a token).
public struct AccountsListCommand: Command {
    public static let name = "accounts list"
    public static let summary = "list the accounts of the running lfg serve"
    public static let usage = """
        Usage: lfg accounts list [--port N]

        Prints one line per account: its name, its token's id (lfga.<id>.…, never the secret), when it was
        made and, if so, when it was revoked.
        """

    public var port: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        struct Listing: Decodable { var accounts: [AccountListing] }
        let accounts = try await OwnerCall(port: port, context: context).send("GET", APIPaths.accounts)
            .decode(Listing.self).accounts
        if accounts.isEmpty {
            context.write("no accounts (the install owner's token alone); lfg accounts create NAME makes one\n")
        }
        for account in accounts {
            let state = account.revokedAt.map { "revoked \(PairListCommand.date($0))" } ?? "active"
            context.write(
                "\(account.name)  \(account.token)  made \(PairListCommand.date(account.createdAt))  \(state)\n")
        }
        return 0
    }
}

/// `lfg accounts revoke NAME`: the account's token is refused from its next call on; its rows are kept.
public struct AccountsRevokeCommand: Command {
    public static let name = "accounts revoke"
    public static let summary = "revoke an account's token (its next call gets 401; its data is kept)"
    public static let usage = """
        Usage: lfg accounts revoke NAME [--port N]

        Revokes account NAME: its token and its paired devices are refused from their next call (401), its
        open event streams end and its cards are no longer pushed. Its data is kept; the name stays taken.
        """

    public var port: Int
    public var accountName: String

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
        guard let accountName = arguments.positional() else {
            throw UsageError("name the account to revoke (lfg accounts list shows them)")
        }
        self.accountName = accountName
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let account = try await OwnerCall(port: port, context: context)
            .send("DELETE", APIPaths.accounts + "/" + accountName).decode(AccountListing.self)
        context.write("revoked account \(account.name); its token's next call gets 401 (its data is kept)\n")
        return 0
    }
}
