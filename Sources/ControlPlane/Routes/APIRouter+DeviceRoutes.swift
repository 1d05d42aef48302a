import APNs
import FleetCore
import HTTPTypes

extension APIRouter {
    /// The device and channel routes of contract 8.1 (`PUT /api/devices/{id}` is with the others).
    static func deviceRoutes(_ service: ControlPlaneService) -> [Route] {
        [
            Route("GET", "/api/devices/{}") { _, parameters in
                await answer { () async throws(ServiceError) in .json(try await service.device(DeviceID(parameters[0]))) }
            },
            Route("DELETE", "/api/devices/{}") { _, parameters in
                await answer { () async throws(ServiceError) in
                    try await service.deleteDevice(DeviceID(parameters[0]))
                    return .json(["deleted": parameters[0]])
                }
            },
            Route("POST", "/api/push/live-activity/channel-card") { request, _ in
                await with(ChannelCardBody.self, request) { body throws(ServiceError) in
                    try await service.reportChannelCard(body.deviceId ?? .legacy, channelId: body.channelId)
                    return ok
                }
            },
        ]
    }
}

/// `POST /api/push/live-activity/channel-card`: `{"channelId": base64, "deviceId"?}`.
struct ChannelCardBody: Decodable {
    var channelId: BroadcastChannelID
    var deviceId: DeviceID?

    enum CodingKeys: String, CodingKey { case channelId, deviceId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        channelId = try container.decode(BroadcastChannelID.self, forKey: .channelId)
        deviceId = try container.decodeDeviceIdIfPresent(.deviceId)
    }
}
