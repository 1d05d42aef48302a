import ControlPlane
import FleetCore

/// The verbs scenarios are written in: servers, phones, and sessions that start, ask and finish.
extension Simulation {
    @discardableResult
    func addServer(
        _ name: String, port: Int = SimulatedServer.pushPort, sharing store: SimulatedStore? = nil,
        lifetime: ClosedRange<Double> = 0...Double.infinity
    ) -> SimulatedServer {
        let server = SimulatedServer(
            name: name, port: port, store: store ?? SimulatedStore(), lifetime: lifetime, guards: guards,
            policy: CardPolicy(staleAfter: staleAfter, privacyByDefault: serversArePrivateByDefault))
        servers.append(server)
        return server
    }

    @discardableResult
    func addPhone(
        _ name: String, device: DeviceID, environment: PushEnvironment = .production, hiddenDirs: HiddenDirs = [],
        servers serverNames: [String] = ["pro"]
    ) -> Phone {
        let phone = Phone(
            index: phones.count, name: name, device: device, environment: environment, hiddenDirs: hiddenDirs,
            servers: serverNames, simulation: self)
        phones.append(phone)
        return phone
    }

    /// One server and one phone whose app is opened once, left, and then killed by iOS: nobody opens it
    /// again. Yesterday's card is long gone, but its update token is still the one the server holds.
    @discardableResult
    func addIdlePhone() -> Phone {
        let pro = addServer("pro")
        let phone = addPhone("iphone", device: "iphone-1")
        seedCorpseUpdateTokens(for: phone, on: pro, environments: [.production])
        at(1) { phone.open($0) }
        at(20) { phone.leave($0) }
        at(60) { phone.terminate($0) }
        return phone
    }

    /// A session begins a turn: busy, no prompt.
    func begin(_ sid: SessionID, _ title: String, host: HostID = .local, cwd: String? = nil) {
        let report = SessionReport(title: title, host: host, cwd: cwd ?? "/work/\(sid)", busy: true)
        self.report(report, sid: sid)
    }

    /// The session asks a question (needs input).
    func ask(_ sid: SessionID, _ text: String = "Proceed?") {
        change(sid) { $0.prompt = Prompt(kind: .question, text: text) }
    }

    /// The person answers: back to working.
    func answer(_ sid: SessionID) {
        change(sid) {
            $0.prompt = nil
            $0.busy = true
        }
    }

    /// The turn ends: idle (not a card row).
    func finish(_ sid: SessionID) {
        change(sid) {
            $0.prompt = nil
            $0.busy = false
        }
    }

    private func change(_ sid: SessionID, _ edit: (inout SessionReport) -> Void) {
        guard var report = truth.report(of: sid) else { return }
        edit(&report)
        self.report(report, sid: sid)
    }

    /// Registers historical update tokens of cards long gone (corpses: APNs answers 200 and drops them).
    func seedCorpseUpdateTokens(for phone: Phone, on server: SimulatedServer, environments: [PushEnvironment]) {
        for environment in environments {
            let hex = script.hexToken()
            apns.noteOwner(hex, phone: phone.index)
            server.tokenRegistered(phone.device, .update, environment, hex: hex, self)
        }
    }

    /// Registers push-to-start tokens minted by old dev builds (rotted: APNs answers 200 and drops them).
    func seedRottedStartTokens(for phone: Phone, on server: SimulatedServer, count: Int, environment: PushEnvironment) {
        for _ in 0..<count {
            let hex = script.hexToken()
            apns.noteOwner(hex, phone: phone.index)
            server.tokenRegistered(phone.device, .pushToStart, environment, hex: hex, self)
        }
    }
}
