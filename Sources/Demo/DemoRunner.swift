import FleetCore
import Foundation
import HTTPClient

/// A Live Activity push the APNs stand-in received, as the demo phone needs it.
public struct DemoPush: Equatable, Sendable {
    /// The whole device token (in-process only; never printed).
    public var token: String
    /// `aps.event`: `start`, `update` or `end`.
    public var event: String

    public init(token: String, event: String) {
        self.token = token
        self.event = event
    }
}

/// Plays `DemoScene` against a running control plane through its HTTP API, and the demo phone's
/// answers to the pushes the APNs stand-in received. Runs until its task is cancelled.
public struct DemoRunner: Sendable {
    let api: DemoAPI
    let clock: any Clock<Duration>
    let pushes: AsyncStream<DemoPush>
    let state: DemoState

    /// - Parameters:
    ///   - baseURL: the control plane, e.g. `http://127.0.0.1:8766`.
    ///   - bearer: its auth token.
    ///   - pushes: what the APNs stand-in received, in order.
    ///   - makeToken: a fresh random device token (hex).
    ///   - reportProblem: where failed API calls are told (stderr in `lfg serve --demo`).
    public init(
        baseURL: String, bearer: String, client: HTTPClient, clock: any Clock<Duration>, pushes: AsyncStream<DemoPush>,
        makeToken: @escaping @Sendable () -> String, reportProblem: @escaping @Sendable (String) -> Void
    ) {
        api = DemoAPI(baseURL: baseURL, bearer: bearer, client: client, reportProblem: reportProblem)
        self.clock = clock
        self.pushes = pushes
        state = DemoState(phone: DemoPhone(pushToStartToken: makeToken()), makeToken: makeToken)
    }

    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await heartbeats() }
            group.addTask { await playScene() }
            group.addTask { await answerPushes() }
        }
    }

    /// Every reachable host beats every 3 s.
    private func heartbeats() async {
        while !Task.isCancelled {
            for host in DemoScene.hosts where await state.isReachable(host) {
                await api.send("PUT", "/api/hosts/\(host)", json: ["ttlSeconds": DemoScene.heartbeatTTL])
            }
            guard (try? await clock.sleep(for: .seconds(3))) != nil else { return }
        }
    }

    private func playScene() async {
        let phone = await state.phone
        await api.send(
            "PUT", "/api/devices/\(DemoPhone.deviceId)",
            json: ["env": DemoPhone.env, "platform": "ios", "pushToStartToken": phone.pushToStartToken])
        var cycle = 0
        while !Task.isCancelled {
            await state.setCycle(cycle)
            var elapsed = 0.0
            for step in DemoScene.steps(cycle: cycle) {
                guard (try? await clock.sleep(for: .seconds(step.at - elapsed))) != nil else { return }
                elapsed = step.at
                await perform(step.action)
            }
            guard (try? await clock.sleep(for: .seconds(DemoScene.cycleSeconds - elapsed))) != nil else { return }
            cycle += 1
        }
    }

    private func perform(_ action: DemoScene.Action) async {
        switch action {
        case .report(let sid, let report):
            await api.send("PUT", "/api/sessions/\(sid)", body: (try? JSONEncoder().encode(report)) ?? Data())
        case .remove(let sid):
            await api.send("DELETE", "/api/sessions/\(sid)", body: Data())
        case .hostReachable(let host, let isReachable):
            await state.setReachable(host, isReachable)
        case .personEndsCard:
            for effect in await state.handle(.personEndedCard) { await carryOut(effect) }
        }
    }

    private func answerPushes() async {
        await withDiscardingTaskGroup { group in
            for await push in pushes {
                for effect in await state.handle(.pushed(token: push.token, event: push.event)) {
                    group.addTask { await carryOut(effect) }
                }
            }
        }
    }

    private func carryOut(_ effect: DemoPhone.Effect) async {
        switch effect {
        case .registerUpdateToken(let token, let delay):
            guard (try? await clock.sleep(for: .seconds(delay))) != nil else { return }
            await api.send(
                "POST", "/api/push/live-activity/update-token",
                json: ["deviceId": DemoPhone.deviceId, "env": DemoPhone.env, "token": token])
        case .reportEnded:
            await api.send("POST", "/api/push/live-activity/ended", json: ["deviceId": DemoPhone.deviceId])
        }
    }
}

/// The demo's shared state: the phone, the cycle, which hosts beat.
actor DemoState {
    private(set) var phone: DemoPhone
    private var cycle = 0
    private var unreachable: Set<String> = []
    private let makeToken: @Sendable () -> String

    init(phone: DemoPhone, makeToken: @escaping @Sendable () -> String) {
        self.phone = phone
        self.makeToken = makeToken
    }

    func setCycle(_ cycle: Int) { self.cycle = cycle }
    func isReachable(_ host: String) -> Bool { !unreachable.contains(host) }
    func setReachable(_ host: String, _ isReachable: Bool) {
        if isReachable { unreachable.remove(host) } else { unreachable.insert(host) }
    }

    func handle(_ event: DemoPhone.Event) -> [DemoPhone.Effect] {
        phone.handle(event, adoptionDelay: DemoScene.adoptionDelay(cycle: cycle), mintToken: makeToken)
    }
}

/// The control plane's API as the demo calls it.
struct DemoAPI: Sendable {
    let baseURL: String
    let bearer: String
    let client: HTTPClient
    let reportProblem: @Sendable (String) -> Void

    func send(_ method: String, _ path: String, json: [String: any Sendable]) async {
        let body = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data()
        await send(method, path, body: body)
    }

    func send(_ method: String, _ path: String, body: Data) async {
        let request = HTTPClientRequest(
            method: method, url: baseURL + path,
            headers: [("Authorization", "Bearer \(bearer)"), ("Content-Type", "application/json")], body: body,
            timeout: .seconds(5))
        do {
            let response = try await client.send(request)
            if response.status >= 300 { reportProblem("demo: \(method) \(path) answered \(response.status): \(response.text)") }
        } catch {
            if case .cancelled = error { return }
            reportProblem("demo: \(method) \(path) failed: \(error)")
        }
    }
}
