/// The fleet card's fixed attributes; ActivityKit's `attributes-type` is this type's name.
///
/// Only `fleetId` exists, always `"fleet"`, so the app can find its card among its activities.
public struct LFGFleetAttributes: Hashable, Sendable, Codable {
    /// The name APNs start pushes carry as `attributes-type`.
    public static let typeName = "LFGFleetAttributes"
    /// The only fleet id there is.
    public static let fleet = "fleet"

    public var fleetId: String

    public init(fleetId: String = LFGFleetAttributes.fleet) { self.fleetId = fleetId }

    enum CodingKeys: String, CodingKey { case fleetId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fleetId = try container.decode(.fleetId, default: LFGFleetAttributes.fleet)
    }
}
