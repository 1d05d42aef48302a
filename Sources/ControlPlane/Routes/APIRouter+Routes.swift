import FleetCore
import Foundation
import HTTPTypes

extension APIRouter {
    /// Decodes the request body as `T` (a 400 naming the field when it is wrong), then runs `body`
    /// (a refused service call becomes its 4xx/5xx).
    static func with<T: Decodable & Sendable>(
        _ type: T.Type, _ request: HTTPRequest, isEmptyAllowed: Bool = false,
        _ body: (T) async throws(ServiceError) -> HTTPResponse
    ) async -> HTTPResponse {
        let value: T
        do throws(InputError) {
            value = try RequestBody.decode(type, from: request.body, isEmptyAllowed: isEmptyAllowed)
        } catch {
            return .badRequest(error)
        }
        return await answer { () async throws(ServiceError) in try await body(value) }
    }

    /// Runs `body`; a refused service call becomes its 4xx/5xx.
    static func answer(_ body: () async throws(ServiceError) -> HTTPResponse) async -> HTTPResponse {
        do throws(ServiceError) { return try await body() } catch { return .failure(error) }
    }

    static let ok = HTTPResponse.json(["ok": true])

    /// `GET /api/events`' answer over `stream`.
    static func eventStream(_ stream: AsyncStream<Data>) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
            body: .stream(stream))
    }

    static func makeRoutes(_ service: ControlPlaneService) -> [Route] {
        let listings = ListingEncodings()
        let reportSequenceField = ReportSequence.header.lowercasedHTTPFieldName  // lower-cased once, not per PUT
        return [
            Route("GET", "/api/sessions") { _, _ in
                .jsonBytes(listings.sessionsBody(await service.sessions()))
            },
            Route("PUT", "/api/sessions/{sid}") { request, parameters in
                await with(SessionReport.self, request) { report throws(ServiceError) in
                    let seq = request.header(reportSequenceField).flatMap { Int($0) }
                    return .jsonBytes(listings.encoded(try await service.putSession(SessionID(parameters[0]), report, seq: seq)))
                }
            },
            Route("PATCH", "/api/sessions/{sid}") { request, parameters in
                await answer { () async throws(ServiceError) in
                    .json(try await service.patchSession(SessionID(parameters[0])) { current throws(InputError) in
                        try MergePatch.apply(request.body, to: current)
                    })
                }
            },
            Route("DELETE", "/api/sessions/{sid}") { _, parameters in
                await answer { () async throws(ServiceError) in
                    try await service.deleteSession(SessionID(parameters[0]))
                    return .json(["deleted": parameters[0]])
                }
            },
            Route("GET", "/api/events") { _, _ in eventStream(service.events.subscribe()) },
            Route("PUT", "/api/hosts/{host}") { request, parameters in
                await with(HeartbeatBody.self, request) { body throws(ServiceError) in
                    try await service.heartbeat(HostID(parameters[0]), ttlSeconds: body.ttlSeconds)
                    return ok
                }
            },
            Route("PUT", "/api/devices/{deviceId}") { request, parameters in
                await with(DeviceBody.self, request) { body throws(ServiceError) in
                    try await service.reportDevice(
                        DeviceID(parameters[0]), body.profile, pushToStartToken: body.pushToStartToken,
                        appState: body.appState, sealKey: body.sealKey)
                    return ok
                }
            },
        ] + deviceRoutes(service) + liveActivityRoutes(service) + questionRoutes(service) + pairingRoutes(service)
    }

    static func liveActivityRoutes(_ service: ControlPlaneService) -> [Route] {
        @Sendable func register(_ kind: TokenKind, _ request: HTTPRequest) async -> HTTPResponse {
            await with(TokenRegistrationBody.self, request) { body throws(ServiceError) in
                try await service.registerToken(body.deviceId ?? .legacy, kind, env: body.env, hex: body.token)
                return ok
            }
        }
        return [
            Route("POST", "/api/push/live-activity/start-token") { request, _ in await register(.pushToStart, request) },
            Route("POST", "/api/push/live-activity/update-token") { request, _ in await register(.update, request) },
            Route("POST", "/api/push/live-activity/ended") { request, _ in
                await with(EndedBody.self, request, isEmptyAllowed: true) { body throws(ServiceError) in
                    try await service.reportEnded(body.deviceId ?? .legacy)
                    return ok
                }
            },
            Route("GET", "/api/push/live-activity/state") { _, _ in .json(await service.liveActivityState()) },
            Route("GET", "/api/push/live-activity/tokens") { _, _ in .json(await service.tokenList()) },
            Route("GET", "/api/push/live-activity/history") { request, _ in
                struct Body: Encodable { var history: [CardHistoryRecord] }
                guard let limit = limit(request, default: 100, max: 10_000) else {
                    return .error(400, "must be a whole number from 1 to 10000", field: "limit")
                }
                let deviceId = request.query["deviceId"].map { DeviceID($0) }
                return await answer { () async throws(ServiceError) in
                    .json(Body(history: try await service.cardHistory(deviceId: deviceId, limit: limit)))
                }
            },
            Route("GET", "/api/log") { request, _ in
                guard let limit = limit(request, default: 200, max: 1000) else {
                    return .error(400, "must be a whole number from 1 to 1000", field: "limit")
                }
                let lines = await service.recentDecisionLog(limit: limit)
                var data = Data("{\"lines\":[".utf8)
                data.append(Data(lines.joined(separator: ",").utf8))
                data.append(Data("]}".utf8))
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(data))
            },
        ]
    }

    /// The `limit` query parameter within 1...max, its default when absent, nil when invalid.
    static func limit(_ request: HTTPRequest, default defaultValue: Int, max: Int) -> Int? {
        guard let text = request.query["limit"] else { return defaultValue }
        guard let value = Int(text), (1...max).contains(value) else { return nil }
        return value
    }
}
