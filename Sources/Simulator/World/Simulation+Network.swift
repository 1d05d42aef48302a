import ControlPlane
import FleetApp
import FleetCore

/// The phone's calls to the control planes: through the tunnel, to the server, and the answer back.
extension Simulation {
    /// Carries one queued call from `phone` to its server and the answer back to the app.
    ///
    /// Inside a background launch's short window the tunnel may drop it (the app's manager retries
    /// registrations with backoff);
    /// a `PUT /api/devices` of a phone that `reportsHiddenDirs == false` always fails.
    func route(_ sent: InMemoryControlPlaneOutbox.Sent, from phone: Phone) {
        if case .reportEnded = sent.call, sent.server == phone.rig.configuration.defaultServer?.name {
            metrics.endedReported()
        }
        if case .registerToken(let registration, _, _) = sent.call, registration.kind == .pushToStart,
            !phone.supportsPushToStart
        {
            // iOS before 17.2 has no push-to-start token; FleetApp's in-memory ActivityKit mints one
            // anyway, so the simulator keeps it off the wire (and tells the app it went through).
            after(0) { simulation in
                phone.rig.answer(sent.id, .success(.accepted))
                phone.pump(simulation)
            }
            return
        }
        // A session fetch is an ordinary GET; registrations and reports are what a slow tunnel delays.
        var isFetch = false
        if case .fetchSessions = sent.call { isFetch = true }
        let leg = isFetch ? environment.fetchLatency : environment.registrationLatency
        var chance = draw(.tunnel, "\(phone.index)/\(sent.call.kind)")
        let there = chance.uniform(leg) / 2
        let back = chance.uniform(leg) / 2
        let getsThrough = chance.chance(environment.backgroundRegistrationSuccess)
        let isDropped = (phone.isInBackgroundLaunch && !getsThrough) || !phone.isOnline
        var isRefused = false
        if case .putDevice = sent.call, !phone.reportsHiddenDirs { isRefused = true }
        guard let server = server(named: sent.server), !isDropped, !isRefused else {
            note("\(phone.name): \(sent.call.summary) to \(sent.server) failed")
            after(there + back) { simulation in
                phone.rig.answer(sent.id, .failure(.unreachable("the tunnel dropped the request")))
                phone.pump(simulation)
            }
            return
        }
        after(there) { simulation in
            guard server.isRunning(at: simulation.now) else {
                simulation.after(back) { simulation in
                    phone.rig.answer(sent.id, .failure(.unreachable("connection refused")))
                    phone.pump(simulation)
                }
                return
            }
            let reply = simulation.serve(sent.call, at: server, from: phone)
            simulation.after(back) { simulation in
                phone.rig.answer(sent.id, reply)
                phone.pump(simulation)
            }
        }
    }

    /// What the server does with one call (the routes of contract section 5, in memory).
    private func serve(
        _ call: ControlPlaneCall, at server: SimulatedServer, from phone: Phone
    ) -> Result<ControlPlaneReply, ControlPlaneError> {
        switch call {
        case .putDevice(let device, let registration):
            if let appState = registration.appState.flatMap({ DeviceAppState(rawValue: $0.rawValue) }) {
                server.appStateReported(device, appState, self)
            }
            server.deviceReported(
                device,
                DeviceProfile(
                    env: registration.env, platform: registration.platform, hiddenDirs: registration.hiddenDirs,
                    liveActivityChannels: registration.liveActivityChannels ?? false, privacy: registration.privacy),
                self)
            if let token = registration.pushToStartToken {
                apns.noteOwner(token.hex, phone: phone.index)
                server.tokenRegistered(device, .pushToStart, registration.env, hex: token.hex, self)
            }
            return .success(.accepted)
        case .registerToken(let registration, let env, let device):
            apns.noteOwner(registration.token.hex, phone: phone.index)
            note("\(server.name): \(registration.kind.rawValue) token \(registration.token) from \(phone.name)")
            let kind: TokenKind = registration.kind == .pushToStart ? .pushToStart : .update
            server.tokenRegistered(device, kind, env, hex: registration.token.hex, self)
            if kind == .update, server.port == SimulatedServer.pushPort {
                metrics.updateTokenReached(registration.token, on: phone, self)
            }
            return .success(.accepted)
        case .reportEnded(_, let device):
            server.endedReported(device, self)
            return .success(.accepted)
        case .fetchSessions:
            return .success(.sessions(server.listing(self)))
        case .fetchDevice(let device):
            guard let info = server.channelInfo(of: device) else {
                return .failure(.rejected(status: 404, message: "no device '\(device)'"))
            }
            return .success(.device(info))
        case .reportChannelCard(let channelId, let device):
            guard server.channelCardReported(device, channelId: channelId, self) else {
                return .failure(.rejected(status: 404, message: "device '\(device)' has no such channel"))
            }
            return .success(.accepted)
        case .answerQuestion(let id, _, _):
            // The simulated server keeps no questions (its sessions ask none).
            return .failure(.rejected(status: 404, message: "no question '\(id)'"))
        }
    }
}
