import APNs
import APNsMock
import ControlPlane
import Demo
import ES256OpenSSL
import Foundation
import HTTPClient

/// `lfg serve --demo`: the real server, pushing for real, to a local APNs stand-in instead of Apple.
///
/// Everything lives in a throwaway home (removed at exit): a fresh ES256 key, Live Activities on, the
/// APNs URLs pointed at an in-process `APNsMockServer`, a 1 s watcher tick. `DemoRunner` plays two
/// simulated hosts and one simulated phone through the HTTP API, and the phone answers the pushes
/// the stand-in receives, so the dashboard shows cards started, adopted, updated and ended.
struct DemoMode: Sendable {
    static let bundleID = "dev.lfg.demo"

    /// The command's context with the demo's environment.
    let context: CommandContext
    let home: String
    let bearer: String
    let mock: APNsMockServer
    let pushes: AsyncStream<DemoPush>
    let pushSink: AsyncStream<DemoPush>.Continuation

    /// Makes the home, the key and the stand-in. The watcher pushes only from its push port, so the
    /// port must be fixed (not 0).
    static func start(_ context: CommandContext, port: Int) throws -> DemoMode {
        guard port != 0 else { throw CommandFailure("--demo needs a fixed --port (the watcher pushes only from it)") }
        let home = NSTemporaryDirectory() + "lfg-demo-" + Authenticator.makeSecret().prefix(12)
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key = try OpenSSLSigningKey.generateP256()
        let keyFile = home + "/demo-key.p8"
        guard FileManager.default.createFile(
            atPath: keyFile, contents: Data(try key.privateKeyPEM().utf8), attributes: [.posixPermissions: 0o600])
        else { throw CommandFailure("cannot write the demo key in \(home); check the temporary folder") }
        let verifier = try key.verifier()
        let (pushes, sink) = AsyncStream.makeStream(of: DemoPush.self)
        let mock: APNsMockServer
        do {
            mock = try APNsMockServer(
                verifier: { verifier.verify(providerToken: $0) }, bundleID: BundleID(bundleID),
                onRecord: { record in
                    if record.isDelivered, let event = liveActivityEvent(record) {
                        sink.yield(DemoPush(token: record.token, event: event))
                    }
                })
        } catch {
            throw CommandFailure("cannot start the demo's APNs stand-in: \(error)")
        }
        var environment = context.environment
        let bearer = environment["LFG_AUTH_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? Authenticator.makeSecret()
        let overrides = [
            "LFG_HOME": home, "LFG_AUTH_TOKEN": bearer, "LFG_LIVE_ACTIVITIES": "1", "LFG_PUSH_PORT": String(port),
            "LFG_TICK_MS": "1000", "LFG_APNS_KEY_FILE": keyFile, "LFG_APNS_KEY_ID": "DEMOKEY001",
            "LFG_APNS_TEAM_ID": "DEMOTEAM01", "LFG_APNS_BUNDLE_ID": bundleID, "LFG_APNS_SANDBOX_URL": mock.baseURL,
            "LFG_APNS_PRODUCTION_URL": mock.baseURL,
        ]
        environment.merge(overrides) { _, demo in demo }
        let demoContext = CommandContext(
            readInput: context.readInput, write: context.write, writeError: context.writeError, environment: environment)
        return DemoMode(context: demoContext, home: home, bearer: bearer, mock: mock, pushes: pushes, pushSink: sink)
    }

    /// Serves and plays the demo until SIGINT or SIGTERM.
    func run(alongside parts: ServeParts, context: CommandContext) async {
        context.write("""
              demo: hosts studio and laptop, phone \(DemoPhone.deviceId), APNs stand-in at \(mock.baseURL); \
            a new cycle every \(Int(DemoScene.cycleSeconds)) s; \(home) is removed at exit

            """)
        let runner = DemoRunner(
            baseURL: "http://127.0.0.1:\(parts.port)", bearer: bearer, client: HTTPClient(), clock: ContinuousClock(),
            pushes: pushes, makeToken: { Authenticator.makeSecret() },
            reportProblem: { context.writeError("lfg serve: \($0)\n") })
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await parts.run() }
            group.addTask { await runner.run() }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Stops the stand-in and removes the throwaway home.
    func stop() {
        mock.stop()
        pushSink.finish()
        try? FileManager.default.removeItem(atPath: home)
    }

    /// `aps.event` of a Live Activity push, or nil.
    static func liveActivityEvent(_ record: MockRecord) -> String? {
        guard record.pushType == "liveactivity", let body = record.bodyJSON as? [String: Any],
            let aps = body["aps"] as? [String: Any]
        else { return nil }
        return aps["event"] as? String
    }
}
