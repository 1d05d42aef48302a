import FleetCore
import Foundation
import HTTPTypes

/// JSON merge patch (RFC 7386) of a session report: `PATCH /api/sessions/{sid}`.
enum MergePatch {
    /// `report` with `patch` merged in; a null removes a key (it takes its default).
    static func apply(_ patch: Data, to report: SessionReport) throws(InputError) -> SessionReport {
        let patchObject = try RequestBody.object(patch)
        guard let current = try? WireJSON.encode(report),
            let currentObject = (try? JSONSerialization.jsonObject(with: current)) as? [String: Any]
        else { throw InputError(field: nil, message: "the stored report could not be read") }
        let merged = merge(currentObject, patchObject)
        guard let data = try? JSONSerialization.data(withJSONObject: merged) else {
            throw InputError(field: nil, message: "the patched report is not valid JSON")
        }
        return try RequestBody.decode(SessionReport.self, from: data)
    }

    static func merge(_ target: [String: Any], _ patch: [String: Any]) -> [String: Any] {
        var result = target
        for (key, value) in patch {
            if value is NSNull {
                result[key] = nil
            } else if let patchObject = value as? [String: Any] {
                result[key] = merge(result[key] as? [String: Any] ?? [:], patchObject)
            } else {
                result[key] = value
            }
        }
        return result
    }
}
