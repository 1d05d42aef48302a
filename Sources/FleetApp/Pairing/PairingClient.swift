import FleetCore
import Foundation
import HTTPTypes

/// Pairing from the app's side: a scanned or pasted link becomes a ``ServerProfile`` whose bearer is the
/// device's own credential (never the owner's token), kept in a ``CredentialStore``.
public struct PairingClient: Sendable {
    let transport: any PairingTransport

    public init(transport: any PairingTransport) { self.transport = transport }

    /// Trades the link's one-time code for this device's credential, keeps it in `store` under the
    /// server's name, and returns the server to add to the app's configuration.
    ///
    /// - Parameter name: how the owner will see this device (e.g. the phone's name).
    public func pair(
        _ linkText: String, name: String, deviceID: DeviceID, store: any CredentialStore
    ) async throws(PairingFailure) -> ServerProfile {
        let link: PairingLink
        do { link = try PairingLink(parsing: linkText) } catch { throw .badLink(error) }
        let body: Data
        do { body = try WireJSON.encode(PairRequest(code: link.code, name: name, deviceId: deviceID)) } catch {
            throw .unreadableAnswer("the request could not be encoded: \(error)")
        }
        let request = HTTPRequest(
            method: "POST", path: "/api/pair", headers: ["Content-Type": "application/json"], body: body)
        let (status, answerBody) = try await send(request, to: link.server)
        guard status == 200 else { throw Self.failure(status: status, body: answerBody) }
        let answer: PairAnswer
        do { answer = try JSONDecoder().decode(PairAnswer.self, from: answerBody) } catch {
            throw .unreadableAnswer("\(error)")
        }
        let server = ServerProfile(name: link.serverName, baseURL: link.server, bearerToken: answer.credential)
        do { try store.save(answer.credential, forServer: server.name) } catch { throw .notKept(error) }
        return server
    }

    /// Signs this device out of `server`: the server revokes the credential (`DELETE /api/pair`), then
    /// the store forgets it. A credential the server already refuses (401) is forgotten all the same.
    public func signOut(of server: ServerProfile, store: any CredentialStore) async throws(PairingFailure) {
        let request = HTTPRequest(
            method: "DELETE", path: "/api/pair", headers: ["Authorization": "Bearer \(server.bearerToken)"])
        let (status, body) = try await send(request, to: server.baseURL)
        guard status == 200 || status == 401 else { throw Self.failure(status: status, body: body) }
        do { try store.removeCredential(forServer: server.name) } catch { throw .notKept(error) }
    }

    private func send(_ request: HTTPRequest, to baseURL: String) async throws(PairingFailure) -> (status: Int, body: Data) {
        do { return try await transport.send(request, to: baseURL) } catch { throw .unreachable(error) }
    }

    static func failure(status: Int, body: Data) -> PairingFailure {
        let message = (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error ?? "no error text"
        return status == 401 ? .codeRefused(message) : .rejected(status: status, message: message)
    }
}

/// Why pairing failed, in words for the person holding the phone.
public enum PairingFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The scanned or pasted text is not a pairing link.
    case badLink(PairingLinkError)
    /// The code is wrong, expired or already used (401).
    case codeRefused(String)
    case rejected(status: Int, message: String)
    case unreachable(ControlPlaneError)
    case unreadableAnswer(String)
    /// The credential could not be kept on the phone.
    case notKept(CredentialStoreError)

    public var description: String {
        switch self {
        case .badLink(let error): "\(error)"
        case .codeRefused: "the pairing code expired or was already used; run lfg pair on your computer and scan the new code"
        case .rejected(let status, let message): "the server refused pairing (\(status)): \(message)"
        case .unreachable(let error): "\(error)"
        case .unreadableAnswer(let detail): "the server's answer could not be read (\(detail)); update the app or the server"
        case .notKept(let error): "paired, but the credential could not be kept on this phone: \(error)"
        }
    }
}
