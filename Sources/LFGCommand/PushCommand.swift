import APNs
import FleetCore
import Foundation

/// `lfg push`: send one push to a token and print what APNs answered
public struct PushCommand: Command {
    public static let name = "push"
    public static let summary = "send one push to a token or broadcast channel and print what APNs answered"
    public static let usage = """
        Usage: lfg push --env sandbox|production (--token HEX | --channel ID)
                        [--event start|update|end [--state FILE] [--stale-date UNIX] [--input-channel ID]] |
                        [--title T --body B] |
                        [--type alert|background|liveactivity|widgets --payload FILE]
                        [--priority 10|5|1] [--collapse-id ID] [--expiration UNIX] [--url URL] [--ca-file F]

        Signs with LFG_APNS_KEY_FILE / _KEY_ID / _TEAM_ID, tops with LFG_APNS_BUNDLE_ID, and sends to the
        env's APNs URL (LFG_APNS_SANDBOX_URL / _PRODUCTION_URL, or --url). --event sends a fleet-card
        Live Activity push with the ContentState JSON in --state (end defaults to a zeroed state);
        --title/--body an alert; --type with --payload any body as is (--payload - reads stdin).
        --channel ID publishes an update or end to a broadcast channel instead (POST /4/broadcasts/apps/<bundle>
        on LFG_APNS_BROADCAST_*_URL; apns-expiration defaults to 0). --input-channel ID makes a start join that
        channel (iOS 18); --stale-date sets aps.stale-date.
        Prints {"status", "reason", "apnsId", "outcome", "ms"}; exits 1 unless the push was accepted.
        """

    enum Content: Equatable {
        case liveActivity(LiveActivityEvent, stateFile: String?)
        case alert(title: String, body: String)
        case raw(PushType, payloadFile: String)
        case widgetReload
        case background
    }

    let environment: PushEnvironment
    let destination: PushDestination
    let content: Content
    let staleDate: UnixTime?
    let inputChannel: BroadcastChannelID?
    let priority: PushPriority?
    let collapseID: CollapseID?
    let expiration: PushExpiration?
    let url: String?
    let caFile: String?

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        guard let envText = try arguments.value("--env") else { throw UsageError("--env is required: sandbox or production") }
        guard let environment = PushEnvironment(rawValue: envText) else {
            throw UsageError("--env must be sandbox or production, not '\(envText)'")
        }
        self.environment = environment
        switch (try arguments.value("--token"), try arguments.value("--channel")) {
        case (let tokenText?, nil):
            do { destination = .device(try DeviceToken(hex: tokenText)) } catch { throw UsageError("--token: \(error)") }
        case (nil, let channelText?):
            do { destination = .channel(try BroadcastChannelID(channelText)) } catch { throw UsageError("--channel: \(error)") }
        default: throw UsageError("give exactly one of --token HEX (a device) or --channel ID (a broadcast channel)")
        }
        staleDate = try arguments.integer("--stale-date", in: 0...Int(Int32.max)).map(UnixTime.init)
        do { inputChannel = try arguments.value("--input-channel").map { id throws(PushRequestError) in try BroadcastChannelID(id) } } catch {
            throw UsageError("--input-channel: \(error)")
        }
        let event = try arguments.value("--event")
        let state = try arguments.value("--state")
        let title = try arguments.value("--title")
        let body = try arguments.value("--body")
        let type = try arguments.value("--type")
        let payload = try arguments.value("--payload")
        if let event {
            guard let parsed = LiveActivityEvent(rawValue: event) else { throw UsageError("--event must be start, update or end") }
            guard state != nil || parsed == .end else { throw UsageError("--event \(event) needs --state FILE (a ContentState JSON)") }
            content = .liveActivity(parsed, stateFile: state)
        } else if let title {
            content = .alert(title: title, body: body ?? "")
        } else if let type {
            guard let pushType = PushType(rawValue: type) else {
                throw UsageError("--type must be alert, background, liveactivity or widgets, not '\(type)'")
            }
            if let payload {
                content = .raw(pushType, payloadFile: payload)
            } else if pushType == .widgets {
                content = .widgetReload
            } else if pushType == .background {
                content = .background
            } else {
                throw UsageError("--type \(type) needs --payload FILE")
            }
        } else {
            throw UsageError("say what to send: --event, --title or --type")
        }
        if case .channel = destination {
            guard case .liveActivity(let event, _) = content, event != .start else {
                throw UsageError("a broadcast channel takes only --event update or end (a broadcast cannot start a card)")
            }
        }
        if let priorityText = try arguments.value("--priority") {
            guard let value = Int(priorityText).flatMap(PushPriority.init(rawValue:)) else {
                throw UsageError("--priority must be 10, 5 or 1")
            }
            priority = value
        } else {
            priority = nil
        }
        do { collapseID = try arguments.value("--collapse-id").map { id throws(PushRequestError) in try CollapseID(id) } } catch {
            throw UsageError("--collapse-id: \(error)")
        }
        expiration = try arguments.integer("--expiration", in: 0...Int(Int32.max)).map { $0 == 0 ? .immediately : .at(Int64($0)) }
        url = try arguments.value("--url")
        caFile = try arguments.value("--ca-file")
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let provider = try APNsProvider.start(environment: context.environment, overrideURL: url, caFile: caFile)
        defer { provider.sender.shutdown() }
        let request = try makeRequest(
            bundleID: provider.configuration.bundleID, now: WallClock.system.now, readInput: context.readInput)
        let response = await provider.sender.send(request)
        context.write(Self.describe(response) + "\n")
        guard response.outcome == .accepted else {
            let why = response.failure?.description ?? response.reason?.explanation ?? "status \(response.status)"
            context.writeError("lfg push: \(response.outcome.rawValue): \(why)\n")
            return 1
        }
        return 0
    }

    /// The request the options describe; throws a failure naming a bad file or an oversize payload.
    func makeRequest(bundleID: BundleID, now: UnixTime, readInput: () -> Data) throws -> PushRequest {
        do {
            var request: PushRequest
            switch content {
            case .liveActivity(let event, let stateFile):
                let state = try stateFile.map { try JSONDecoder().decode(ContentState.self, from: Self.read($0, readInput)) }
                    ?? .zeroed(at: now)
                let payload: LiveActivityPayload = switch event {
                case .start: .start(state: state, timestamp: now, staleDate: staleDate, inputPushChannel: inputChannel)
                case .update: .update(state: state, timestamp: now, staleDate: staleDate)
                case .end: .end(state: state, timestamp: now, dismissalDate: now)
                }
                switch destination {
                case .device(let token):
                    request = try .liveActivity(payload, token: token, environment: environment, bundleID: bundleID)
                case .channel(let channel):
                    request = try .broadcast(
                        payload, channel: channel, environment: environment, bundleID: bundleID, priority: .immediate,
                        expiration: .immediately)
                }
            case .alert(let title, let body):
                let token = try deviceToken()
                request = try .alert(AlertPayload(title: title, body: body), token: token, environment: environment, bundleID: bundleID)
            case .widgetReload:
                let token = try deviceToken()
                request = try .widgetReload(token: token, environment: environment, bundleID: bundleID)
            case .background:
                let token = try deviceToken()
                request = try .background(token: token, environment: environment, bundleID: bundleID)
            case .raw(let type, let file):
                request = try PushRequest(
                    token: try deviceToken(), environment: environment, pushType: type, topic: type.topic(bundleID: bundleID),
                    priority: type == .background ? .powerConsidered : .immediate,
                    payload: PushPayload(bytes: Array(Self.read(file, readInput))))
            }
            if let priority { request.priority = priority }
            request.collapseID = collapseID ?? request.collapseID
            request.expiration = expiration ?? request.expiration
            return request
        } catch let error as PushRequestError {
            throw CommandFailure("not sent: \(error)")
        } catch let error as DecodingError {
            throw CommandFailure("--state is not a ContentState: \(InputError(error))")
        }
    }

    /// The device token (the parser allows a channel only with a Live Activity update or end).
    private func deviceToken() throws -> DeviceToken {
        guard case .device(let token) = destination else { throw CommandFailure("this push needs --token") }
        return token
    }

    static func read(_ path: String, _ readInput: () -> Data) throws -> Data {
        if path == "-" { return readInput() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read '\(path)'; give an existing file (or - for stdin)")
        }
        return data
    }

    /// One JSON line: status, reason, apns-id, outcome, latency.
    static func describe(_ response: PushResponse) -> String {
        var object: [String: Any] = [
            "status": response.status, "outcome": response.outcome.rawValue,
            "ms": (response.latencyMilliseconds * 10).rounded() / 10,
        ]
        object["reason"] = response.reason?.rawValue ?? response.failure?.description ?? NSNull()
        object["apnsId"] = response.apnsID ?? NSNull()
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
