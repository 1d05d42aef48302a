import APNs
import APNsMock
import Dispatch
import ES256OpenSSL
import Foundation

/// `lfg apns-mock`: run a local APNs stand-in speaking HTTP/2
public struct APNsMockCommand: Command {
    public static let name = "apns-mock"
    public static let summary = "run a local APNs stand-in speaking HTTP/2"
    public static let usage = """
        Usage: lfg apns-mock [--port N] [--tls] [--key-file PEM] [--bundle-id ID] [--ca-out FILE]
                             [--channel-limit N] [--leak-check FIXTURE] [--quiet]

        Serves APNs' device-push, broadcast (POST /4/broadcasts/apps/<bundle>) and channel management
        (/1/apps/<bundle>/channels, /all-channels) APIs on one port of 127.0.0.1: point every LFG_APNS_*_URL
        at it. Creates past --channel-limit live channels (default 10000) answer CannotCreateChannelConfig.
        Default port 2197: h2c with prior knowledge, or
        TLS with ALPN h2 under --tls (a throwaway certificate, written to --ca-out for clients to trust).
        Provider tokens are verified against the public half of --key-file (default LFG_APNS_KEY_FILE),
        and must carry LFG_APNS_KEY_ID / LFG_APNS_TEAM_ID when set; without a key any well-formed ES256
        token is accepted. --bundle-id (default LFG_APNS_BUNDLE_ID)
        makes topics checked. Prints one JSON line per request (token prefixes only) unless --quiet.
        Program it over its own port: POST /mock/tokens/<hex> {"behaviour": "live|dead-but-200|
        unregistered|bad-device-token|fail", "status"?, "count"?}, POST /mock/faults {"fault":
        "goaway|drop|silent|expire-provider-tokens", "after"?}, POST /mock/reset, GET /mock/records,
        GET /mock/channels, POST /mock/channels/faults {"call": "create|read|delete|list|broadcast",
        "status"?, "reason"?, "count"?}, POST /mock/channels/limit {"limit"}.
        --leak-check FIXTURE (privacy mode, contract 8.3): a JSON array of words (titles, steps, paths,
        question texts, options, answers); every push carrying one prints a LEAK line on stderr, is listed
        by GET /mock/leaks, and makes the stand-in exit 1 when stopped. POST /mock/leaks {"words": [...]}
        sets the words at run time.
        """

    let port: UInt16
    let isTLS: Bool
    let keyFile: String?
    let bundleID: String?
    let caOut: String?
    let isQuiet: Bool
    let channelLimit: Int
    let leakFixture: String?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = UInt16(try arguments.integer("--port", in: 0...65535) ?? 2197)
        isTLS = arguments.flag("--tls")
        keyFile = try arguments.value("--key-file")
        bundleID = try arguments.value("--bundle-id")
        caOut = try arguments.value("--ca-out")
        isQuiet = arguments.flag("--quiet")
        channelLimit = try arguments.integer("--channel-limit", in: 0...1_000_000) ?? MockState.defaultChannelLimit
        leakFixture = try arguments.value("--leak-check")
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        var verifier: ES256Verifier?
        if let path = keyFile ?? context.environment["LFG_APNS_KEY_FILE"] {
            guard let pem = FileManager.default.contents(atPath: path) else {
                throw CommandFailure("cannot read the key file '\(path)'; give a .p8 or public-key PEM with --key-file")
            }
            do { verifier = try ES256Verifier(publicKeyPEM: Array(pem)) } catch { throw CommandFailure("\(path): \(error)") }
        }
        var check: (@Sendable (String) -> ProviderTokenClaims?)?
        if let verifier {
            // Like APNs, a token must name this key and team when they are configured.
            let keyID = context.environment["LFG_APNS_KEY_ID"]
            let teamID = context.environment["LFG_APNS_TEAM_ID"]
            check = { token in
                guard let claims = verifier.verify(providerToken: token) else { return nil }
                guard keyID.map({ $0 == claims.keyID }) ?? true, teamID.map({ $0 == claims.teamID }) ?? true else { return nil }
                return claims
            }
        }
        let leakCheck = try leakFixture.map { path throws(CommandFailure) in try Self.leakCheck(fixture: path) }
        let isQuiet = isQuiet
        let printer: @Sendable (MockRecord) -> Void = { record in
            if !isQuiet { context.write(record.jsonLine + "\n") }
            if let leak = leakCheck?.leak(in: record) { context.writeError("lfg apns-mock: \(leak.summary)\n") }
        }
        let bundle = (bundleID ?? context.environment["LFG_APNS_BUNDLE_ID"]).map { BundleID($0) }
        let server: APNsMockServer
        do {
            server = try APNsMockServer(
                port: port, tls: isTLS, verifier: check, bundleID: bundle, channelLimit: channelLimit, onRecord: printer)
        } catch {
            throw CommandFailure("cannot start the stand-in: \(error)")
        }
        server.state.checkLeaks(leakCheck)
        var banner: [String: Any] = ["listening": server.baseURL, "tls": isTLS, "verifying": verifier != nil]
        if let leakCheck { banner["leakCheckWords"] = leakCheck.words.count }
        if let certificate = server.certificatePEM {
            let path = caOut ?? NSTemporaryDirectory() + "lfg-apns-mock-\(server.port)-ca.pem"
            guard FileManager.default.createFile(atPath: path, contents: Data(certificate.utf8)) else {
                throw CommandFailure("cannot write the certificate to '\(path)'; pick another --ca-out")
            }
            banner["caFile"] = path
        }
        let line = try JSONSerialization.data(withJSONObject: banner, options: [.sortedKeys, .withoutEscapingSlashes])
        context.write(String(decoding: line, as: UTF8.self) + "\n")
        await Self.waitForInterrupt()
        server.stop()
        let leaks = server.state.leaks
        guard leaks.isEmpty else {
            context.writeError("lfg apns-mock: \(leaks.count) of \(server.state.leakChecked) pushes carried fixture words\n")
            return 1
        }
        return 0
    }

    /// The leak check a fixture file names.
    static func leakCheck(fixture path: String) throws(CommandFailure) -> LeakCheck {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the leak-check fixture '\(path)'; give a JSON array of words")
        }
        do { return try LeakCheck(fixture: String(decoding: data, as: UTF8.self)) } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// Suspends until SIGINT or SIGTERM.
    static func waitForInterrupt() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = SignalLatch(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { resumed.fire() }
                source.resume()
                resumed.keep(source)
            }
        }
    }
}

/// Resumes a continuation once, from whichever signal arrives first; keeps the signal sources alive.
private final class SignalLatch: @unchecked Sendable {
    // Guarded by `lock`: the continuation is resumed at most once, the sources live as long as the latch.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }

    func fire() {
        let pending = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { continuation = nil }
            return continuation
        }
        pending?.resume()
    }
}
