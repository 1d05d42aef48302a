import Diagnosis
import Foundation

/// Builds decision-log text line by line, in the contract's shape.
struct LogFixture {
    var lines: [String] = []
    var device = "phone"

    mutating func line(_ ts: Double, _ event: String, _ fields: [String: Any] = [:]) {
        var object = fields
        object["ts"] = ts
        object["event"] = event
        object["deviceId"] = object["deviceId"] ?? device
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        lines.append(String(decoding: data, as: UTF8.self))
    }

    mutating func start(_ ts: Double, tokens: Int = 2, accepted: Bool = true) {
        line(ts, "decide", ["action": "start", "tokens": tokens, "working": 1, "needsInput": 0, "rows": ["a:working"]])
        line(ts, "send", ["action": "start", "token": "aaaa1111", "env": "sandbox", "status": accepted ? 200 : 410, "ms": 12.5])
        if !accepted { line(ts, "none-accepted", ["action": "start", "accepted": 0, "attempted": 1]) }
    }

    mutating func update(_ ts: Double, token: String = "bbbb2222", status: Int = 200, reason: String? = nil) {
        line(ts, "decide", ["action": "update", "tokens": 1])
        var fields: [String: Any] = ["action": "update", "token": token, "env": "sandbox", "status": status, "ms": 20]
        if let reason { fields["reason"] = reason }
        line(ts, "send", fields)
    }

    var text: String { lines.joined(separator: "\n") + "\n" }

    /// Runs the analyzer over `text` fed in chunks of `chunkSize` bytes.
    func report(chunkSize: Int = 1 << 16, text override: String? = nil) -> DiagnosisReport {
        var analyzer = DecisionLogAnalyzer()
        let bytes = Array((override ?? text).utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunkSize)
            bytes[offset..<end].withUnsafeBytes { analyzer.feed($0) }
            offset = end
        }
        return analyzer.finish()
    }
}
