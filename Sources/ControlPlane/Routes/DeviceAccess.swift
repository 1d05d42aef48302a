import FleetCore
import HTTPTypes

/// What a paired device's credential may call: the app's own routes, listed here and nowhere else.
///
/// Everything not listed is the owner's (bearer token or dashboard session), and a route added later is
/// the owner's until someone lists it here on purpose: reporting sessions and heartbeats (the hooks'),
/// deleting sessions and devices, the token, history, state and log listings, question long polls,
/// pairing codes, the paired-device list and revocation, login links, and the dashboard's pages.
public enum DeviceAccess {
    /// `METHOD /path/pattern` of every route a device may call, patterns as the routes spell them.
    public static let routes: Set<String> = [
        "GET /api/sessions",
        "GET /api/events",
        "PUT /api/devices/{deviceId}",
        "GET /api/devices/{}",
        "POST /api/push/live-activity/start-token",
        "POST /api/push/live-activity/update-token",
        "POST /api/push/live-activity/ended",
        "POST /api/push/live-activity/channel-card",
        "GET /api/questions",
        "GET /api/questions/{}",
        "POST /api/questions/{}/answer",
    ]

    /// The refusal when `record`'s device may not call `route` with `parameters`, else nil.
    ///
    /// A credential paired with a device id speaks only for that device: under `/api/devices/{id}` and
    /// in a body's `deviceId` (a body that is not JSON is left to the route's own 400).
    static func refusal(
        _ route: Route, _ parameters: [String], _ request: HTTPRequest, _ record: DeviceCredentialRecord
    ) -> HTTPResponse? {
        guard routes.contains(route.template) else {
            return .error(403, "a paired device's credential cannot call \(route.template); it is the owner's (use the token)")
        }
        guard let deviceId = record.deviceId else { return nil }
        var named: String?
        if route.pattern.starts(with: ["api", "devices"]) { named = parameters.first }
        if !request.body.isEmpty, let body = try? JSONParser.parse(bytes: Array(request.body)) {
            named = named ?? body["deviceId"]?.stringValue
        }
        if let named, named != deviceId.rawValue {
            return .error(403, "this credential was paired for device '\(deviceId)', not '\(named)'", field: "deviceId")
        }
        return nil
    }
}
