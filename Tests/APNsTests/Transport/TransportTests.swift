import APNs
import APNsHTTP2
import APNsMock
import APNsTesting
import ES256OpenSSL
import FleetCore
import Testing

@Suite struct TransportTests {
    @Test("Every header, the path, the body and a verifiable provider token reach the stand-in")
    func everyHeaderArrives() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let request = try PushRequest(
            token: Fixture.token, environment: .production, pushType: .alert, topic: "dev.lfg.app",
            priority: .powerConsidered, expiration: .at(1_764_403_600), collapseID: CollapseID("job-42"),
            apnsID: APNsID("123e4567-e89b-12d3-a456-426614174000"),
            payload: PushPayload(encoding: AlertPayload(title: "t", body: "b")))
        let response = await harness.sender.send(request)
        #expect(response.outcome == .accepted)
        #expect(response.apnsID == "123e4567-e89b-12d3-a456-426614174000")
        let record = try #require(harness.server.state.records.first)
        #expect(record.path == "/3/device/" + Fixture.tokenHex)
        #expect(record.method == "POST")
        #expect(record.headers == [
            "apns-push-type": "alert", "apns-topic": "dev.lfg.app", "apns-priority": "5",
            "apns-expiration": "1764403600", "apns-collapse-id": "job-42",
            "apns-id": "123e4567-e89b-12d3-a456-426614174000",
        ])
        #expect(record.body == request.payload.bytes)
        #expect(record.providerToken == ProviderTokenClaims(keyID: MockHarness.keyID, teamID: MockHarness.teamID, issuedAt: 1_764_400_000))
        #expect(record.isDelivered)
    }

    @Test("Each token behaviour comes back as its outcome: live, dead-but-200, 410, 400 BadDeviceToken")
    func behaviours() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        let state = harness.server.state
        state.program(MockHarness.token(2).hex, .deadButAccepted)
        state.program(MockHarness.token(3).hex, .unregistered)
        state.program(MockHarness.token(4).hex, .badDeviceToken)
        let live = await harness.sender.send(MockHarness.update(1))
        let dead = await harness.sender.send(MockHarness.update(2))
        let gone = await harness.sender.send(MockHarness.update(3))
        let bad = await harness.sender.send(MockHarness.update(4))
        #expect(live.outcome == .accepted && live.status == 200 && live.apnsID != nil)
        #expect(dead.outcome == .accepted, "a dead Live Activity token answers 200")
        #expect(state.records(for: MockHarness.token(2).hex).map(\.isDelivered) == [false])
        #expect(gone.outcome == .tokenDead && gone.status == 410 && gone.reason == .unregistered)
        #expect(gone.invalidSince == 1_764_400_000)
        #expect(bad.outcome == .tokenDead && bad.status == 400 && bad.reason == .badDeviceToken)
    }

    @Test("5xx for the next N is retry-later each time, then live again")
    func failingThenLive() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        harness.server.state.program(MockHarness.token(1).hex, .failing(status: 503, reason: .serviceUnavailable, count: 2))
        var outcomes: [PushOutcome] = []
        for _ in 0..<3 { outcomes.append(await harness.sender.send(MockHarness.update(1)).outcome) }
        #expect(outcomes == [.retryLater, .retryLater, .accepted])
    }

    @Test("A retrying sender over the real transport backs off through 500s and lands the push")
    func retryWithBackoff() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        harness.server.state.program(MockHarness.token(1).hex, .failing(status: 500, reason: .internalServerError, count: 2))
        let sleeper = RecordingSleeper()
        let sender = RetryingPushSender(
            base: harness.sender, policy: RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(2)), sleeper: sleeper,
            jitter: { 0 })
        let response = await sender.send(MockHarness.update(1))
        #expect(response.outcome == .accepted)
        #expect(response.attempts == 3)
        #expect(sleeper.recorded == [.seconds(2), .seconds(4)])
        #expect(harness.server.state.records.map(\.status) == [500, 500, 200])
    }

    @Test("A key the server does not know is a configuration error, and so is a topic for another app")
    func configurationErrors() async throws {
        let harness = try MockHarness(key: try OpenSSLSigningKey.generateP256())
        defer { harness.stop() }
        let response = await harness.sender.send(MockHarness.update(1))
        #expect(response.status == 403 && response.reason == .invalidProviderToken)
        #expect(response.outcome == .configurationError)

        let good = try MockHarness()
        defer { good.stop() }
        let otherApp = try PushRequest.liveActivity(
            .update(state: Fixture.state, timestamp: 1), token: Fixture.token, environment: .sandbox, bundleID: BundleID("com.other"))
        let wrongTopic = await good.sender.send(otherApp)
        #expect(wrongTopic.reason == .badTopic && wrongTopic.outcome == .configurationError)
    }

    @Test("One provider token serves many pushes; a new one is minted once the window has passed")
    func providerTokenReuse() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        for index in 0..<3 { _ = await harness.sender.send(MockHarness.update(index)) }
        harness.clock.advance(by: 40 * 60)
        _ = await harness.sender.send(MockHarness.update(9))
        let issued = harness.server.state.records.map { $0.providerToken?.issuedAt }
        #expect(issued == [1_764_400_000, 1_764_400_000, 1_764_400_000, 1_764_402_400])
        #expect(harness.tokens.mintCount == 2)
    }

    @Test("403 ExpiredProviderToken mints a new provider token at once and resends the push once")
    func expiredProviderToken() async throws {
        let harness = try MockHarness()
        defer { harness.stop() }
        _ = await harness.sender.send(MockHarness.update(1))
        harness.server.state.inject(.expireProviderTokens)
        let response = await harness.sender.send(MockHarness.update(2))
        #expect(response.outcome == .accepted)
        #expect(response.attempts == 2)
        #expect(harness.tokens.mintCount == 2)
        #expect(harness.server.state.records.map(\.status) == [200, 403, 200])
    }

    @Test("One sender keeps a connection per base URL: sandbox over h2c, production over TLS")
    func poolPerEndpoint() async throws {
        let plain = try MockHarness()
        let secure = try MockHarness(tls: true)
        defer {
            plain.stop()
            secure.stop()
        }
        let sender = try HTTP2PushSender(
            options: .init(
                endpoints: [.sandbox: Endpoint(url: plain.server.baseURL), .production: Endpoint(url: secure.server.baseURL)],
                caFile: secure.caFile),
            tokens: nil)
        defer { sender.shutdown() }
        var production = MockHarness.update(2)
        production.environment = .production
        let responses = [await sender.send(MockHarness.update(1)), await sender.send(production), await sender.send(MockHarness.update(3))]
        #expect(responses.map(\.status) == [403, 403, 403], "no provider token was configured")
        #expect(plain.server.state.records.map(\.token) == [MockHarness.token(1).hex, MockHarness.token(3).hex])
        #expect(secure.server.state.records.map(\.token) == [MockHarness.token(2).hex])
        #expect(sender.connectionsOpened == 2)
    }
}
