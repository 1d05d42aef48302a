import FleetCore

extension Simulation {
    /// Hands one push to the simulated APNs; `answered` runs when the answer is back.
    ///
    /// The device sees the push (if it goes anywhere) at the same instant the server gets its answer.
    func sendThroughAPNs(_ push: SimulatedPush, answered: @escaping (SimulatedAnswer, Simulation) -> Void) {
        metrics.pushSent()
        note("apns: \(push.event.rawValue) -> \(push.token.prefix(8)) (\(push.environment.rawValue))")
        let latency = random.uniform(environment.apnsLatency)
        let isTransientFailure = random.chance(environment.apnsTransientFailure)
        after(latency) { simulation in
            let answer = simulation.deliver(push, transientFailure: isTransientFailure)
            simulation.note("apns: \(push.event.rawValue) \(push.token.prefix(8)) answered \(answer)")
            answered(answer, simulation)
        }
    }

    private func deliver(_ push: SimulatedPush, transientFailure: Bool) -> SimulatedAnswer {
        if transientFailure { return .retryLater }
        guard let target = apns.target(of: push.token) else { return .tokenDead }  // 400 BadDeviceToken
        switch target {
        case .pushToStart(let index):
            let phone = phones[index]
            guard phone.isInstalled else { return .tokenDead }  // 410 Unregistered
            // A rotted token (an older launch or dev build minted it) answers 200 and drops the payload.
            if push.event == .start, push.token == phone.pushToStartToken { phone.pushStarted(push, in: self) }
            return .accepted
        case .activity(let index, let cardID):
            let phone = phones[index]
            guard phone.isInstalled else { return .tokenDead }
            // A dead Live Activity token answers 200 and silently drops the payload.
            if let card = phone.cards.first(where: { $0.id == cardID }) { phone.apply(push, to: card, in: self) }
            return .accepted
        }
    }
}
