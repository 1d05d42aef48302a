import APNs
import APNsMock
import ControlPlane
import Demo
import ES256OpenSSL
import FleetCore
import Foundation
import StoreSQLite

/// `lfg serve --demo`: the real server (HTTP, watcher, SQLite, lock) pushing to an in-process APNs
/// stand-in, with simulated hosts and one simulated iPhone playing ``DemoSchedule/standard`` against it.
struct DemoServe {
    let port: Int
    let bind: String

    func run(_ context: CommandContext) async throws -> Int32 {
        let signals = TerminationSignals()
        let demo = try await DemoParts.assemble(environment: context.environment, port: port, bind: bind, context: context)
        defer { demo.standIn.stop() }
        context.write("""
            lfg serve --demo: listening on \(demo.url) (demo data in \(demo.home))
              dashboard login (one time): \(demo.url)/login?code=\(demo.serve.loginCode)
              live activities: \(demo.serve.gateReason.map { "silent: \($0)" } ?? "pushing to the APNs stand-in at \(demo.standIn.baseURL)")
              simulated: hosts \(DemoSchedule.standard.hosts.map(\.rawValue).joined(separator: ", ")) and one iPhone \
            (\(DemoWorld.deviceID)), all through the HTTP API;
              an APNs stand-in checks every push (throwaway key) and hands it to the phone. No Apple account,
              no phone, nothing leaves this machine. A two-minute story repeats, narrated below; Ctrl-C stops.

            """)
        let inbox = demo.inbox
        let url = demo.url
        let token = demo.bearerToken
        await demo.serve.run(until: signals, alongside: {
            let world = DemoWorld(
                schedule: .standard, api: LoopbackHTTPHandler(baseURL: url), bearerToken: token,
                startedAt: WallClock.system.now, pushes: inbox, narrate: { context.write($0 + "\n") })
            await world.play(wallClock: { WallClock.system.now }, sleeper: ContinuousClock(), every: .milliseconds(100))
        })
        context.write("""
            lfg serve --demo: stopped; its data stays in \(demo.home)
              (lfg diagnose --log \(demo.home)/liveactivity.log reads its decision log)

            """)
        return 0
    }
}

/// The demo's pieces, assembled: the stand-in, the real server wired to it, and what the simulated
/// hosts and phone need to call it.
struct DemoParts: Sendable {
    let serve: ServeParts
    let standIn: APNsMockServer
    /// What the stand-in accepted, for the simulated phone.
    let inbox: PushInbox
    let home: String
    /// `http://127.0.0.1:<port>`.
    let url: String
    let bearerToken: String

    /// Makes the throwaway key, starts the stand-in, and assembles the server over a demo home:
    /// `$LFG_HOME` when set, else a fresh folder under `$TMPDIR` (never the person's `~/.lfg`).
    static func assemble(environment: [String: String], port: Int, bind: String, context: CommandContext)
        async throws -> DemoParts
    {
        let home = try demoHome(environment)
        let keyFile = home + "/demo-apns-key.p8"
        let inbox = PushInbox()
        let isPrivate = environment["LFG_PRIVACY"] != "0"
        let standIn: APNsMockServer
        do {
            let key = try OpenSSLSigningKey.generateP256()
            guard FileManager.default.createFile(
                atPath: keyFile, contents: Data(try key.privateKeyPEM().utf8), attributes: [.posixPermissions: 0o600])
            else { throw CommandFailure("cannot write the demo's throwaway key to \(keyFile); check the folder") }
            let verifier = try key.verifier()
            let leakCheck = LeakCheck(words: DemoSchedule.standard.privateWords)
            standIn = try APNsMockServer(
                verifier: { verifier.verify(providerToken: $0) }, bundleID: BundleID(DemoEnvironment.bundleID),
                onRecord: { record in
                    inbox.append(record)
                    // Privacy mode's proof: a push carrying one of the demo's words is said at once.
                    if isPrivate, let leak = leakCheck.leak(in: record) {
                        context.writeError("lfg serve --demo: \(leak.summary)\n")
                    }
                })
            if isPrivate { standIn.state.checkLeaks(leakCheck) }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("cannot start the demo's APNs stand-in: \(error)")
        }
        do {
            let values = DemoEnvironment.make(
                base: environment, home: home, keyFile: keyFile, standInURL: standIn.baseURL, port: port)
            let config: ServerConfig
            do { config = try ServerConfig.load(environment: values) } catch { throw CommandFailure("\(error)") }
            let serve = try await ServeParts.assemble(
                config: config, port: port, bind: bind, context: context, pushPortFollowsListening: true)
            let token = try config.authToken ?? HomeFiles.authToken(at: home + "/" + HomeFiles.authToken) {
                Authenticator.makeSecret()
            }
            let url = "http://\(bind == "0.0.0.0" ? "127.0.0.1" : bind):\(serve.port)"
            return DemoParts(serve: serve, standIn: standIn, inbox: inbox, home: home, url: url, bearerToken: token)
        } catch {
            standIn.stop()
            throw error
        }
    }

    /// `$LFG_HOME` if set (made if missing), else a new folder `lfg-demo-<random>` under `$TMPDIR` (or the system's).
    static func demoHome(_ environment: [String: String]) throws(CommandFailure) -> String {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        let home = environment["LFG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/lfg-demo-"
            + String(Authenticator.makeSecret().prefix(8))
        do {
            try FileManager.default.createDirectory(
                atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CommandFailure("cannot make the demo folder \(home): \(error); set LFG_HOME to a writable folder")
        }
        return home
    }
}
