import FleetCore
import Foundation
import HTTPTypes

/// The HTTP request a simulated host makes for one demo action (contract section 5), or nil when the
/// action is not a host's.
enum HostReport {
    static func request(for action: DemoAction, ttlSeconds: Double, bearerToken: String) -> HTTPRequest? {
        let body: [String: Any]
        let method: String
        let path: String
        switch action {
        case .heartbeat(let host), .hostComesBack(let host):
            (method, path, body) = ("PUT", "/api/hosts/\(host.rawValue)", ["ttlSeconds": ttlSeconds])
        case .startSession(let sid, let title, let host, let cwd):
            let report: [String: Any] = [
                "title": title, "host": host.rawValue, "cwd": cwd, "busy": true, "unread": false, "prompt": NSNull(),
                "archived": false,
            ]
            (method, path, body) = ("PUT", "/api/sessions/\(sid.rawValue)", report)
        case .ask(let sid, let prompt):
            var asked: [String: Any] = ["kind": prompt.kind.rawValue, "text": prompt.text]
            if let id = prompt.id { asked["id"] = id }
            if let options = prompt.options { asked["options"] = options }
            (method, path, body) = ("PATCH", "/api/sessions/\(sid.rawValue)", ["prompt": asked])
        case .answer(let sid):
            (method, path, body) = ("PATCH", "/api/sessions/\(sid.rawValue)", ["prompt": NSNull()])
        case .finish(let sid):
            (method, path, body) = ("PATCH", "/api/sessions/\(sid.rawValue)", ["busy": false, "unread": true])
        case .archive(let sid):
            (method, path, body) = ("PATCH", "/api/sessions/\(sid.rawValue)", ["archived": true])
        case .openApp, .leaveApp, .hostGoesDown, .answerFromPhone:
            return nil
        }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return HTTPRequest(
            method: method, path: path,
            headers: ["Authorization": "Bearer \(bearerToken)", "Content-Type": "application/json"], body: data)
    }
}
