import ControlPlane
import FleetCore
import AsyncTesting
import Foundation
import StoreSQLite
import Testing

/// The rules under pairing: the link format, the hash, the route list, and what survives a failure or a restart.
@Suite struct PairingRulesTests {
    @Test("a pairing link round-trips, reads pasted text with spaces, and refuses what is not one")
    func linkFormat() throws {
        let link = PairingLink(server: "https://mac.example.ts.net:8766/", code: "abc123")
        #expect(link.text == "lfg://pair?server=https://mac.example.ts.net:8766&code=abc123")
        #expect(try PairingLink(parsing: "  \(link.text)\n") == link)
        #expect(link.serverName == "mac.example.ts.net:8766")
        #expect(try PairingLink(parsing: "lfg://pair?code=abc&server=http%3A%2F%2F10.0.0.2%3A8766&v=2").server == "http://10.0.0.2:8766")
        #expect(throws: PairingLinkError.notAPairingLink) { try PairingLink(parsing: "https://example.com") }
        #expect(throws: PairingLinkError.missing("code")) { try PairingLink(parsing: "lfg://pair?server=http://h") }
        #expect(throws: PairingLinkError.badServer("ftp://h")) { try PairingLink(parsing: "lfg://pair?server=ftp://h&code=a") }
        #expect(throws: PairingLinkError.unreadable("code")) { try PairingLink(parsing: "lfg://pair?server=http://h&code=a%2") }
        #expect(!link.description.contains("abc123"))
    }

    @Test("every route a device may call exists, spelled as the router spells it")
    func deviceAccessNamesRealRoutes() async throws {
        let harness = try await ServiceHarness()
        let device = try #require(await harness.service.pair(
            PairRequest(code: harness.service.makePairingCode().code, name: "phone", deviceId: "d")))
        for entry in DeviceAccess.routes.sorted() {
            let parts = entry.split(separator: " ")
            let path = String(parts[1]).replacingOccurrences(of: "{deviceId}", with: "d").replacingOccurrences(of: "{}", with: "d")
            let reply = await harness.call(String(parts[0]), path, token: device.credential)
            #expect(reply.status != 403 && reply.status != 405, "\(entry) answered \(reply.status): \(reply.text)")
        }
    }

    @Test("revoking a device ends its open event stream, so its reconnect gets 401; the owner's stream stays")
    func revocationEndsTheDevicesStream() async throws {
        let harness = try await ServiceHarness()
        let device = try #require(await harness.service.pair(PairRequest(code: harness.service.makePairingCode().code, name: "p")))
        func stream(_ token: String) async throws -> Inbox<Data> {
            let response = await harness.call("GET", "/api/events", token: token).response
            guard case .stream(let events) = response.body else { throw PairingTestError("no event stream") }
            return Inbox(draining: events)
        }
        let devices = try await stream(device.credential)
        let owners = try await stream(ServiceHarness.token)
        _ = try await devices.next("the device stream's first comment")
        _ = try await owners.next("the owner stream's first comment")
        #expect(harness.service.events.subscriberCount == 2)
        _ = try await harness.service.revokeCredential(DeviceCredentialID(device.credentialId))
        #expect(try await devices.next("the device stream to end") == nil)
        #expect(harness.service.events.subscriberCount == 1)
        #expect(await harness.call("GET", "/api/events", token: device.credential).status == 401)
    }

    @Test("a refused name or a failed store write changes nothing, and the code still works after")
    func failuresChangeNothing() async throws {
        let store = InMemoryStore()
        let harness = try await ServiceHarness(store: store)
        let code = harness.service.makePairingCode().code
        let blank = await harness.call("POST", "/api/pair", #"{"code":"\#(code)","name":"  "}"#, token: nil)
        #expect(blank.status == 400 && blank.field == "name")
        store.failNextCommit()
        #expect(await harness.call("POST", "/api/pair", #"{"code":"\#(code)","name":"p"}"#, token: nil).status == 500)
        #expect(harness.service.pairing.credentials.isEmpty)
        #expect(await harness.call("POST", "/api/pair", #"{"code":"\#(code)","name":"p"}"#, token: nil).status == 200)
        let text = await harness.call("POST", "/api/pair", "code=\(code)", token: nil, headers: ["Content-Type": "text/plain"])
        #expect(text.status == 415)
    }

    @Test("credentials survive a restart on SQLite, hashed; a revoked one stays revoked")
    func survivesRestart() async throws {
        let path = try makeTemporaryDirectory() + "/lfg.sqlite"
        let store = try SQLiteStore(path: path, now: 1)
        let service = ControlPlaneService(.init(store: store, gateway: DisabledPushGateway(reason: "test"), decisionLog: InMemoryDecisionLog()))
        try await service.start()
        let kept = try #require(try await service.pair(PairRequest(code: service.makePairingCode().code, name: "a")))
        let gone = try #require(try await service.pair(PairRequest(code: service.makePairingCode().code, name: "b")))
        _ = try await service.revokeCredential(DeviceCredentialID(gone.credentialId))
        let stored = try await store.load().deviceCredentials.values
        #expect(!stored.contains { $0.secretHash.contains(kept.credential.suffix(64)) })

        let restarted = ControlPlaneService(.init(
            store: try SQLiteStore(path: path, now: 2), gateway: DisabledPushGateway(reason: "test"), decisionLog: InMemoryDecisionLog()))
        try await restarted.start()
        #expect(restarted.pairing.verify(kept.credential)?.name == "a")
        #expect(restarted.pairing.verify(gone.credential) == nil)
        // Its last character changed (to "1" when it already is "0": the same credential would verify).
        #expect(restarted.pairing.verify(kept.credential.dropLast() + (kept.credential.hasSuffix("0") ? "1" : "0")) == nil)
    }
}

@Suite struct SHA256Tests {
    @Test("SHA-256 matches the FIPS 180-4 examples (one block, empty, two blocks)")
    func nistVectors() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
