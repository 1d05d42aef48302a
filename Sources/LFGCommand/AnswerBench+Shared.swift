import ControlPlane
import FleetCore
import StorePostgres

extension AnswerBench {
    /// Two control planes in this process on one PostgreSQL database (a fresh schema of `databaseURL`),
    /// each with its own store connection, coordinator (LISTEN/NOTIFY, leases) and HTTP server, as two
    /// `lfg serve` instances would be: the hooks report to and wait on the first; ``otherURL`` is the second.
    static func startShared(executable: String, databaseURL: String) async throws -> AnswerBench {
        let home = try makeHome()
        let schema = "bench_answers_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        var services: [ControlPlaneService] = []
        var urls: [String] = []
        var loops: [@Sendable () async -> Void] = []
        var coordinators: [PostgresCoordinator] = []
        for _ in 0..<2 {
            let store = try PostgresStore(url: databaseURL, schema: schema)
            let coordinator = try PostgresCoordinator(store: store)
            let leases = InstanceLeases()
            var dependencies = ControlPlaneService.Dependencies(
                store: store, gateway: DisabledPushGateway(reason: "bench"), decisionLog: InMemoryDecisionLog())
            dependencies.coordinator = AccountCoordinator(account: .owner, shared: coordinator, leases: leases)
            let service = ControlPlaneService(dependencies)
            try await service.start()
            let director = LeaseDirector(
                coordinator: coordinator, leases: leases, accounts: AccountDirectory(owner: service),
                ttl: dependencies.leaseTTL)
            let (url, served) = try serve(service)
            urls.append(url)
            services.append(service)
            coordinators.append(coordinator)
            loops += served + [{ await director.run() }]
        }
        let stopListening = coordinators
        return AnswerBench(
            executable: executable, home: home, service: services[0], url: urls[0], otherURL: urls[1],
            running: running(loops), cleanUp: { for coordinator in stopListening { coordinator.shutdown() } })
    }
}
