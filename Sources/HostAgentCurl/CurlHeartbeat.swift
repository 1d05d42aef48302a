internal import CCurl
internal import CCurlShims
import FleetCore
import HostAgent
import HostAgentPOSIX

/// ``HeartbeatSender`` over libcurl's blocking easy interface, for `https://` servers (`lfg-host-tls`):
/// one small request every 20 s needs no thread or event loop of its own, and the handle is reused so the
/// TLS connection can be kept alive. libcurl brings its TLS, LDAP and Kerberos libraries (~10 MB resident),
/// which is why plain `http://` servers get ``SocketHeartbeat`` in the smaller `lfg-host` instead.
public final class CurlHeartbeat: HeartbeatSender {
    private let easy: UnsafeMutableRawPointer
    private let url: String
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let timeoutMilliseconds: Int

    /// - Parameters:
    ///   - address: the server (`https://`, or `http://` too).
    ///   - host: this machine's host name as reports carry it.
    ///   - token: the bearer token, or nil.
    public init?(address: ServerAddress, host: HostID, token: String?, timeoutSeconds: Double = 5) {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        url = "\(address.scheme.rawValue)://\(address.hostHeader)" + HeartbeatMessage.path(basePath: address.basePath, host: host)
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
        let body = HeartbeatMessage.body(ttlSeconds: ttlSeconds)
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
}

/// libcurl's write callback: the heartbeat's answer body is not needed.
private func discardBody(_ pointer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?) -> Int {
    size * count
}
