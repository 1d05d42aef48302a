import ControlPlane
import FleetCore
import Foundation
import HTTPClient
import QRCode
import StoreSQLite

/// `lfg pair`: a fresh one-time pairing code from the running `lfg serve`, as a QR code and a link.
public struct PairCommand: Command {
    public static let name = "pair"
    public static let summary = "print a new one-time pairing QR code (and link) for the iPhone app"
    public static let usage = """
        Usage: lfg pair [--port N]

        Asks the lfg serve on 127.0.0.1:N (default 8766) for a new pairing code and prints it as a QR code
        and as a link (lfg://pair?server=...&code=...). Scan it with the LFG app, or paste the link; the app
        trades the code for its own credential. A code works once, for 10 minutes. No restart needed.
        The link names LFG_PUBLIC_URL (set it to the address your phone reaches this computer at).
        lfg pair list: the paired devices; lfg pair revoke ID: sign one out (its next call gets 401).
        """

    public var port: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let answer = try await OwnerCall(port: port, context: context).send("POST", APIPaths.pairingCodes)
        let grant = try answer.decode(PairingGrantText.self)
        context.write(try PairingPrintout.text(link: grant.link, expiresInSeconds: grant.expiresInSeconds, context: context))
        return 0
    }
}

/// `lfg pair list`: every paired device, revoked ones marked.
public struct PairListCommand: Command {
    public static let name = "pair list"
    public static let summary = "list the devices paired with the running lfg serve"
    public static let usage = """
        Usage: lfg pair list [--port N]

        Prints one line per paired device: its credential id, name, device id, when it paired and, if so,
        when it was revoked.
        """

    public var port: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        struct Listing: Decodable { var devices: [PairedDeviceListing] }
        let devices = try await OwnerCall(port: port, context: context).send("GET", APIPaths.pairedDevices)
            .decode(Listing.self).devices
        if devices.isEmpty { context.write("no paired devices; lfg pair prints a code to scan\n") }
        for device in devices {
            let state = device.revokedAt.map { "revoked \(Self.date($0))" } ?? "active"
            context.write(
                "\(device.credentialId)  \(device.name)  device \(device.deviceId?.rawValue ?? "-")  "
                    + "paired \(Self.date(device.createdAt))  \(state)\n")
        }
        return 0
    }

    static func date(_ time: UnixTime) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: time))
    }
}

/// `lfg pair revoke ID`: the device's credential is refused from its next call on.
public struct PairRevokeCommand: Command {
    public static let name = "pair revoke"
    public static let summary = "revoke a paired device's credential (its next call gets 401)"
    public static let usage = """
        Usage: lfg pair revoke CREDENTIAL_ID [--port N]

        Revokes the paired device whose credential id lfg pair list shows. Its next call is refused (401);
        pairing it again needs a new code.
        """

    public var port: Int
    public var id: String

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.localServerPort()
        guard let id = arguments.positional() else { throw UsageError("name the credential id to revoke (lfg pair list shows them)") }
        self.id = id
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let device = try await OwnerCall(port: port, context: context)
            .send("DELETE", APIPaths.pairedDevices + "/" + id).decode(PairedDeviceListing.self)
        context.write("revoked \(device.credentialId) (\(device.name)); its next call gets 401\n")
        return 0
    }
}

/// What `lfg pair` reads of ``PairingGrant``.
struct PairingGrantText: Decodable {
    var link: String
    var expiresInSeconds: Int
}

/// The pairing printout `lfg serve` and `lfg pair` share: the QR code, the link and its lifetime.
enum PairingPrintout {
    /// The QR code (ANSI black on white unless `NO_COLOR` is set) followed by the link.
    static func text(link: String, expiresInSeconds: Int, context: CommandContext) throws -> String {
        let matrix: QRMatrix
        do { matrix = try QRMatrix(encoding: link) } catch { throw CommandFailure("\(error)") }
        let colors = (context.environment["NO_COLOR"] ?? "").isEmpty
        return matrix.terminalText(colors: colors)
            + "pair a phone: scan this with the LFG app, or paste the link (works once, for \(expiresInSeconds / 60) min):\n"
            + link + "\n"
    }
}

/// One call to the local `lfg serve` with the owner's token (LFG_AUTH_TOKEN or $LFG_HOME/auth-token).
struct OwnerCall {
    let port: Int
    let context: CommandContext

    struct Answer {
        var body: Data
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            do { return try JSONDecoder().decode(type, from: body) } catch {
                throw CommandFailure("lfg serve's answer could not be read (\(error)); is it the same version?")
            }
        }
    }

    /// - Parameter json: the request body, sent as JSON; nil for none.
    func send(_ method: String, _ path: String, json: (some Encodable)? = nil as String?) async throws -> Answer {
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
            var headers = [(name: "Authorization", value: "Bearer \(token)")]
            var body = Data()
            if let json {
                headers.append((name: "Content-Type", value: "application/json"))
                body = try JSONEncoder().encode(json)
            }
            response = try await HTTPClient().send(HTTPClientRequest(method: method, url: base + path, headers: headers, body: body))
        } catch {
            throw CommandFailure("no lfg serve answers on \(base) (\(error)); start it, or pass its --port")
        }
        guard response.status == 200 else {
            throw CommandFailure("lfg serve on \(base) refused (HTTP \(response.status)): \(response.text)")
        }
        return Answer(body: response.body)
    }
}
