import APNs
import APNsHTTP2
import APNsMock
import ES256OpenSSL
import FleetCore

extension HTTP2PushSender {
    /// The real HTTP/2 transport with every URL (device pushes, broadcasts, channel management; both
    /// environments) pointed at the APNs stand-in, signing with a fresh throwaway key.
    static func pointed(at mock: APNsMockServer) throws -> HTTP2PushSender {
        let endpoint = try Endpoint(url: mock.baseURL)
        let everywhere: [PushEnvironment: Endpoint] = [.sandbox: endpoint, .production: endpoint]
        return try HTTP2PushSender(
            options: .init(endpoints: everywhere, broadcastEndpoints: everywhere, channelEndpoints: everywhere),
            tokens: ProviderTokenCache(
                keyID: "KEY1234567", teamID: "TEAM123456", key: try OpenSSLSigningKey.generateP256(), clock: .system))
    }
}
