import APNs
import APNsHTTP2
import ES256OpenSSL
import FleetCore
import Foundation

/// Wiring of the live APNs provider from `LFG_APNS_*`: key, provider-token cache and HTTP/2 transport.
/// `lfg push` uses it, and so can `lfg serve`.
public struct APNsProvider: Sendable {
    public let configuration: APNsConfiguration
    public let tokens: ProviderTokenCache
    public let sender: HTTP2PushSender

    /// Reads the configuration and the key file and starts the transport; the error names every
    /// missing or unreadable item (key file, key id, team id, bundle id).
    ///
    /// - Parameter overrideURL: sends every environment's pushes, broadcasts and channel calls here instead
    ///   (`lfg push --url`).
    public static func start(
        environment: [String: String], clock: WallClock = .system, overrideURL: String? = nil, caFile: String? = nil
    ) throws(CommandFailure) -> APNsProvider {
        let configuration: APNsConfiguration
        do { configuration = try APNsConfiguration(environment: environment) } catch {
            throw CommandFailure("APNs is not configured: \(error)")
        }
        let tokens: ProviderTokenCache
        do {
            let pem = try configuration.loadKey(readFile: readFile)
            let key = try OpenSSLSigningKey(pem: pem)
            tokens = ProviderTokenCache(keyID: configuration.keyID, teamID: configuration.teamID, key: key, clock: clock)
        } catch let error as APNsConfigurationError {
            throw CommandFailure(error.description)
        } catch {
            throw CommandFailure("LFG_APNS_KEY_FILE ('\(configuration.keyFile)'): \(error)")
        }
        do {
            var options = try HTTP2PushSender.Options(configuration: configuration)
            if let overrideURL {
                let endpoint = try Endpoint(url: overrideURL)
                options.endpoints = [.sandbox: endpoint, .production: endpoint]
                options.broadcastEndpoints = options.endpoints
                options.channelEndpoints = options.endpoints
            }
            options.caFile = caFile ?? options.caFile
            return APNsProvider(configuration: configuration, tokens: tokens, sender: try HTTP2PushSender(options: options, tokens: tokens))
        } catch {
            throw CommandFailure(error.message)
        }
    }

    /// Reads the key file's bytes; throws saying why not in a few words ("no such file", not a Cocoa error).
    static func readFile(_ path: String) throws -> [UInt8] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw CommandFailure("no such file") }
        guard !isFolder.boolValue else { throw CommandFailure("it is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("permission denied") }
        return Array(data)
    }
}
