internal import CCurl
internal import CCurlShims
import FleetCore
import HostAgent

/// How the host agent tells the server it is up: one `PUT /api/hosts/{host}` per heartbeat.
public protocol HeartbeatSender {
    /// Sends one heartbeat promising to call again within `ttlSeconds`; never throws, never blocks longer
    /// than its own timeout.
    func send(ttlSeconds: Double) -> HeartbeatOutcome
}

/// ``HeartbeatSender`` over libcurl's blocking easy interface: one small request every 20 s needs no
/// thread or event loop of its own, and the handle is reused so the connection can be kept alive.
/// No Foundation: the resident process stays small.
public final class CurlHeartbeat: HeartbeatSender {
    private let easy: UnsafeMutableRawPointer
    private let url: String
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let timeoutMilliseconds: Int

    /// - Parameters:
    ///   - baseURL: `LFG_URL` without a trailing slash.
    ///   - host: this machine's host name as reports carry it.
    ///   - token: the bearer token, or nil.
    public init?(baseURL: String, host: HostID, token: String?, timeoutSeconds: Double = 5) {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        url = baseURL + "/api/hosts/" + Self.percentEncoded(host.rawValue)
        timeoutMilliseconds = Int(timeoutSeconds * 1000)
        var lines = ["Content-Type: application/json", "Expect:"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        for line in lines { headers = curl_slist_append(headers, line) }
    }

    deinit {
        curl_slist_free_all(headers)
        curl_easy_cleanup(easy)
    }

    public func send(ttlSeconds: Double) -> HeartbeatOutcome {
        let body = "{\"ttlSeconds\":\(Int(ttlSeconds.rounded(.up)))}"
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_URL, url)
        _ = lfg_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = lfg_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMilliseconds)
        _ = lfg_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, "PUT")
        _ = lfg_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.utf8.count))
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, body)
        _ = lfg_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headers)
        _ = lfg_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, discardBody)
        let code = curl_easy_perform(easy)
        guard code == CURLE_OK else {
            return .unreachable(String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        _ = lfg_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return (200..<300).contains(status) ? .accepted : .refused(status: status)
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }
}

/// libcurl's write callback: the heartbeat's answer body is not needed.
private func discardBody(_ pointer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    size * count
}
