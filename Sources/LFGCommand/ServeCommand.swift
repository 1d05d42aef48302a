import APNs
import APNsHTTP2
import ControlPlane
import Dashboard
import Dispatch
import ES256OpenSSL
import FleetCore
import Foundation
import HTTPServer
import HTTPTypes
import HookAdapter
import Sealing
import StorePostgres
import StoreSQLite

/// `lfg serve`: run the control plane (HTTP API, watcher, dashboard).
public struct ServeCommand: Command {
    public static let name = "serve"
    public static let summary = "run the control plane (HTTP API, watcher, dashboard)"
    public static let usage = """
        Usage: lfg serve [--port N] [--bind ADDR] [--demo]

        Serves the HTTP API on ADDR:N (default 127.0.0.1:8766) with its data in $LFG_HOME (default ~/.lfg):
        lfg.sqlite (the store), liveactivity.log (the decision log), auth-token (the bearer token, 0600).
        LFG_DATABASE_URL=postgres://... keeps the store in PostgreSQL instead of lfg.sqlite.
        Pushes Live Activity updates only with LFG_LIVE_ACTIVITIES=1, complete LFG_APNS_* credentials,
        N = LFG_PUSH_PORT (default 8766). One server per $LFG_HOME: a second one on the same home refuses to start.
        Prints a one-time dashboard login URL and a one-time pairing QR code for the iPhone app (its link names
        LFG_PUBLIC_URL, else this address; lfg pair prints a fresh one). Stops cleanly on SIGINT or SIGTERM.
        --demo: no Apple account or phone needed: an in-process APNs stand-in, simulated hosts and one
        simulated iPhone drive the real server, with data in a fresh folder under $TMPDIR (or $LFG_HOME).
        """

    public static let defaultPort = DefaultPort.server
    public var port: Int
    public var bind: String

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        port = try arguments.integer("--port", in: 0...65535) ?? Self.defaultPort
        bind = try arguments.value("--bind") ?? "127.0.0.1"
        guard IPv4Address.isValid(bind) else {
            throw UsageError("--bind takes an IPv4 address such as 127.0.0.1, not '\(bind)'")
        }
        isDemo = arguments.flag("--demo")
    }

    /// `--demo`: the server with an APNs stand-in, simulated hosts and a simulated phone (``DemoServe``).
    public var isDemo = false

    public func run(_ context: CommandContext) async throws -> Int32 {
        if isDemo { return try await DemoServe(port: port, bind: bind).run(context) }
        let config: ServerConfig
        do { config = try ServerConfig.load(environment: context.environment) } catch {
            throw CommandFailure("\(error)")
        }
        let signals = TerminationSignals()
        let parts = try await ServeParts.assemble(config: config, port: port, bind: bind, context: context)
        let url = "http://\(bind == "0.0.0.0" ? "127.0.0.1" : bind):\(parts.port)"
        let grant = parts.service.makePairingCode()
        context.write("""
            lfg serve: listening on \(url) (data in \(config.home))
              dashboard login (one time, 15 min; lfg login-link makes more): \(url)/login?code=\(parts.loginCode)
              live activities: \(parts.gateReason.map { "silent: \($0)" } ?? "pushing")

            """)
        context.write(try PairingPrintout.text(link: grant.link, expiresInSeconds: grant.expiresInSeconds, context: context))
        if config.publicURL == nil, bind == "127.0.0.1" || bind == "0.0.0.0" {
            context.writeError(
                "lfg serve: the pairing link names \(url), which a phone cannot reach; set LFG_PUBLIC_URL to the "
                    + "address it reaches this computer at (and --bind to match), then lfg pair\n")
        }
        await parts.run(until: signals)
        context.write("lfg serve: stopped\n")
        return 0
    }
}

/// Everything `lfg serve` wires together, built in order: store, service, HTTP server, push gate.
struct ServeParts: Sendable {
    let service: ControlPlaneService
    /// The owner's service and every account's (contract 8.4).
    let accounts: AccountDirectory
    let server: HTTPServer
    let port: Int
    let loginCode: String
    let gateReason: String?
    /// The home's exclusive lock, held for the life of the server; nil with `LFG_DATABASE_URL`, where
    /// per-device leases take its place (several instances share the database).
    let lock: HomeLock?
    let coordinator: PostgresCoordinator?
    /// The lease rounds over every account's devices (with `LFG_DATABASE_URL`).
    let director: LeaseDirector?
    /// A line on stderr (`lfg serve: ...`).
    let reportProblem: @Sendable (String) -> Void
    let sender: HTTP2PushSender?
    /// The one tick timer of every account's service.
    let ticker: InstanceTicker

    /// - Parameter pushPortFollowsListening: the push port is the bound port, whatever `LFG_PUSH_PORT`
    ///   says (the demo, which may listen on any port, must push).
    static func assemble(
        config: ServerConfig, port: Int, bind: String, context: CommandContext, pushPortFollowsListening: Bool = false
    ) async throws -> ServeParts {
        let home = config.home
        if let warning = try HomeFiles.prepare(home) { context.writeError("lfg serve: warning: \(warning)\n") }
        let isShared = config.databaseURL != nil
        // One home, one writer: a second server on this home would answer from its own memory and
        // overwrite the first one's store, so it refuses before touching anything. On a shared database
        // the per-device leases keep instances apart instead.
        let lock = isShared ? nil : try HomeLock.acquire(path: home + "/" + HomeFiles.watcherLock)
        guard isShared || lock != nil else {
            throw CommandFailure(
                "another lfg serve is running on \(home) (it holds \(home)/\(HomeFiles.watcherLock)); "
                    + "stop it first, or give this one its own LFG_HOME")
        }
        try HomeFiles.restrictModes(home)
        let token = try config.authToken ?? HomeFiles.authToken(at: home + "/" + HomeFiles.authToken) {
            Authenticator.makeSecret()
        }
        let reportProblem: @Sendable (String) -> Void = { context.writeError("lfg serve: \($0)\n") }
        let store = try openStore(config)
        let coordinator = try (store as? PostgresStore).map { store in
            try PostgresCoordinator(store: store, reportProblem: reportProblem)
        }
        let logPath = home + "/" + HomeFiles.decisionLog
        let decisionLog = try DecisionLogFile(path: logPath)
        let (gateway, sender) = try makeGateway(config)
        let notifier = questionNotifier(config, sender: sender)
        // Sharing a database, the instance's leases cover every account's devices (``LeaseDirector``).
        let leases = InstanceLeases()
        // One timer for every account: each service is woken only when its next tick is due.
        let ticker = InstanceTicker(interval: .milliseconds(config.tickMilliseconds))
        // Every account's service alike, over its own store handle and its own decision log.
        let dependencies = { @Sendable (account: AccountID, accountStore: any Store, log: any DecisionLogSink) in
            var dependencies = ControlPlaneService.Dependencies(
                store: accountStore, gateway: gateway, decisionLog: log, policy: config.cardPolicy,
                tickInterval: .milliseconds(config.tickMilliseconds), reportProblem: reportProblem,
                questionNotifier: notifier, questionLifetime: Double(config.questionLifetimeSeconds),
                alertSealing: HPKEAlertSealing())
            dependencies.coordinator = coordinator.map { AccountCoordinator(account: account, shared: $0, leases: leases) }
            dependencies.leaseTTL = config.leaseTTL
            dependencies.ticker = ticker
            return dependencies
        }
        var ownerDependencies = dependencies(.owner, store.scoped(to: .owner), decisionLog)
        if store is PostgresStore { ownerDependencies.databaseRoundTrips = { PostgresRoundTrips.total } }
        let service = ControlPlaneService(
            ownerDependencies,
            gate: gate(config, port: port, lock: .notTried),
            recentLog: DecisionLogFile.tail(path: logPath, limit: 1000))
        try await service.start()
        let accounts = AccountDirectory(owner: service, store: store) { account, accountStore in
            let path = try HomeFiles.accountLog(home, account: account.rawValue)
            let log = try DecisionLogFile(path: path, reportProblem: { reportProblem("account \(account): \($0)") })
            return ControlPlaneService(
                dependencies(account, accountStore, log), gate: gate(config, port: port, lock: .notTried),
                recentLog: DecisionLogFile.tail(path: path, limit: 1000))
        }
        do { try await accounts.start() } catch { throw CommandFailure("cannot open the accounts: \(error)") }
        let director = coordinator.map { coordinator in
            LeaseDirector(
                coordinator: coordinator, leases: leases, accounts: accounts,
                ttl: config.leaseTTL, reportProblem: reportProblem)
        }
        // Reports `lfg hook` could not deliver while the server was down, in order, before new ones.
        let intake = await HookSpoolIntake.drain(home: home, into: service)
        if let line = HookSpoolIntake.summary(intake) { context.writeError("lfg serve: \(line)\n") }

        let loginCode = Authenticator.makeSecret()
        // The web dashboard: authorized requests outside /api/ (the page, its assets, its snapshot).
        let dashboard = DashboardRoutes(
            source: service, now: { WallClock.system.now }, pairingCode: { service.currentPairingCode() })
        let router = APIRouter(
            accounts: accounts, authenticator: Authenticator(token: token, loginCode: loginCode), dashboard: dashboard,
            signInPage: SignInPage())
        // One event loop: every API request serializes on its account's service actor, and a second loop
        // only moves that actor between threads (a hand-off and a wake-up per request): PUT /api/sessions
        // costs 24-27 us of server CPU per request with one loop against 30-35 us with two (bench/ingest.sh load).
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(bindAddress: bind, port: UInt16(port), threadPoolSize: 1),
            handler: router)
        let boundPort: Int
        do { boundPort = Int(try server.start()) } catch {
            throw CommandFailure("\(error)")  // it says why: the port in use, or privileges
        }

        let serverURL = config.publicURL ?? "http://\(bind == "0.0.0.0" ? "127.0.0.1" : bind):\(boundPort)"
        service.pairing.serverURL = serverURL
        var pushConfig = config
        // Sharing a database, every instance may push (each for the devices it leases), whatever its port.
        if pushPortFollowsListening || isShared { pushConfig.pushPort = boundPort }
        var pushGate = gate(pushConfig, port: boundPort, lock: .notTried)
        if pushGate.shouldTryLock() { pushGate.lock = .held }
        await service.setGate(pushGate)
        await accounts.configure(gate: pushGate, serverURL: serverURL)
        return ServeParts(
            service: service, accounts: accounts, server: server, port: boundPort, loginCode: loginCode, gateReason: pushGate.reason(),
            lock: lock, coordinator: coordinator, director: director, reportProblem: reportProblem, sender: sender,
            ticker: ticker)
    }

    /// PostgreSQL when `LFG_DATABASE_URL` is set, else the home's SQLite file.
    static func openStore(_ config: ServerConfig) throws -> any AccountStore {
        if let url = config.databaseURL { return try PostgresStore(url: url, schema: config.databaseSchema) }
        // Exclusive: the home's lock (taken before this) already makes this server the file's only user.
        return try SQLiteStore(path: config.home + "/" + HomeFiles.database, isExclusive: true)
    }

    static func gate(_ config: ServerConfig, port: Int, lock: PushGate.LockState) -> PushGate {
        PushGate(
            isLiveActivitiesOn: config.isLiveActivitiesOn, missingCredentials: config.apns.missingCredentials,
            listeningPort: port, pushPort: config.pushPort, lock: lock, home: config.home)
    }

    /// The live APNs gateway when Live Activities are on and the credentials complete; a silent one otherwise.
    static func makeGateway(_ config: ServerConfig) throws -> (any PushGateway, HTTP2PushSender?) {
        guard config.isLiveActivitiesOn, config.apns.missingCredentials.isEmpty else {
            return (DisabledPushGateway(reason: "pushing is off"), nil)
        }
        do {
            let apns = try APNsConfiguration(environment: config.values)
            let key = try OpenSSLSigningKey(pem: try apns.loadKey(readFile: APNsProvider.readFile))
            let sender = try HTTP2PushSender(
                options: try HTTP2PushSender.Options(configuration: apns),
                tokens: ProviderTokenCache(keyID: apns.keyID, teamID: apns.teamID, key: key, clock: .system))
            return (APNsPushGateway(sender: sender, channels: sender, bundleID: apns.bundleID), sender)
        } catch {
            throw CommandFailure("APNs is configured but unusable: \(error)")
        }
    }

    /// Question alerts and withdrawals over the same APNs sender as the cards (nil when pushing is off).
    static func questionNotifier(_ config: ServerConfig, sender: HTTP2PushSender?) -> (any QuestionNotifier)? {
        guard let sender, let bundleId = config.apns.bundleId else { return nil }
        return APNsQuestionNotifier(sender: sender, bundleID: BundleID(bundleId))
    }

    /// Serves until SIGINT or SIGTERM, then shuts down: HTTP first (in-flight requests answered), then the watcher.
    /// - Parameters:
    ///   - signals: made before the server started listening, so no early signal is lost.
    ///   - companion: runs alongside until the shutdown cancels it (the demo's simulated world).
    func run(until signals: TerminationSignals, alongside companion: (@Sendable () async -> Void)? = nil) async {
        let server = server
        let service = service
        let accounts = accounts
        let director = director
        let ticker = ticker
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await server.run() }
            group.addTask { await ticker.run() }
            group.addTask { await service.run() }
            group.addTask { await accounts.run() }
            if let director { group.addTask { await director.run() } }
            group.addTask { await signals.wait() }
            if let companion { group.addTask { await companion() } }
            _ = await group.next()
            group.cancelAll()
        }
        // Graceful handover: the leases are given up now, not left to expire.
        if let count = await director?.handOver() { reportProblem("handed \(count) device leases over") }
        coordinator?.shutdown()
        for tenant in accounts.allTenants { tenant.service.events.finishAll() }
        sender?.shutdown()
        withExtendedLifetime(lock) {}
    }
}
