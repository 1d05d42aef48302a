import APNs
import APNsHTTP2
import APNsMock
import AsyncTesting
import ES256OpenSSL
import FleetCore
import Foundation

/// A stand-in on a free loopback port and the real transport pointed at it, sharing a throwaway key.
struct MockHarness {
    let server: APNsMockServer
    let sender: HTTP2PushSender
    let tokens: ProviderTokenCache
    let key: OpenSSLSigningKey
    let clock: ManualWallClock
    let caFile: String?

    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"

    init(
        tls: Bool = false, trustCertificate: Bool = true, key: OpenSSLSigningKey? = nil, maximumAttempts: Int = 3,
        channelLimit: Int = MockState.defaultChannelLimit, onRecord: (@Sendable (MockRecord) -> Void)? = nil,
        configure: (inout HTTP2PushSender.Options) -> Void = { _ in }
    ) throws {
        let clock = ManualWallClock()
        let serverKey = try OpenSSLSigningKey.generateP256()
        let verifier = try serverKey.verifier()
        server = try APNsMockServer(
            tls: tls, verifier: { verifier.verify(providerToken: $0) }, bundleID: Fixture.bundle, clock: clock.clock,
            channelLimit: channelLimit, onRecord: onRecord)
        self.key = key ?? serverKey
        self.clock = clock
        tokens = ProviderTokenCache(keyID: Self.keyID, teamID: Self.teamID, key: self.key, clock: clock.clock)
        var caFile: String?
        if let certificate = server.certificatePEM, trustCertificate {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-ca-\(UUID().uuidString).pem").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(certificate.utf8))
            caFile = path
        }
        self.caFile = caFile
        let endpoint = try Endpoint(url: server.baseURL)
        let everywhere: [PushEnvironment: Endpoint] = [.sandbox: endpoint, .production: endpoint]
        var options = HTTP2PushSender.Options(
            endpoints: everywhere, broadcastEndpoints: everywhere, channelEndpoints: everywhere, caFile: caFile,
            maximumAttempts: maximumAttempts)
        configure(&options)
        sender = try HTTP2PushSender(options: options, tokens: tokens)
    }

    func stop() {
        sender.shutdown()
        server.stop()
        if let caFile { try? FileManager.default.removeItem(atPath: caFile) }
    }

    /// Sends `request` through the transport, bounded so a hang is a named failure.
    func send(_ request: PushRequest) async throws -> PushResponse {
        let sender = sender
        return try await bounded("the answer to a push to \(request.destination)") { await sender.send(request) }
    }

    /// Sends a channel call through the transport, bounded so a hang is a named failure.
    func send(_ request: ChannelManagementRequest) async throws -> ChannelManagementResponse {
        let sender = sender
        return try await bounded("the answer to channel call \(request.method.rawValue) \(request.path)") {
            await sender.send(request)
        }
    }

    /// A Live Activity update to a token made from `index`.
    static func update(_ index: Int) -> PushRequest {
        try! PushRequest.liveActivity(
            .update(state: Fixture.state, timestamp: 1_764_400_000), token: token(index), environment: .sandbox,
            bundleID: Fixture.bundle)
    }

    static func token(_ index: Int) -> DeviceToken {
        try! DeviceToken(hex: String(repeating: String(format: "%08x", index), count: 8))
    }
}
