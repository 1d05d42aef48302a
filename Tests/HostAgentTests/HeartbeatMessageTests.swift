import FleetCore
import HostAgent
import LFGCommand
import Testing

@Suite("lfg host: the heartbeat on the wire")
struct HeartbeatMessageTests {
    @Test(
        "LFG_URL is read into scheme, host, port and base path",
        arguments: [
            ("http://127.0.0.1:8080", ServerAddress.Scheme.http, "127.0.0.1", UInt16(8080), "", "127.0.0.1:8080"),
            ("http://mac-mini.local/", .http, "mac-mini.local", 80, "", "mac-mini.local"),
            ("https://lfg.example.com/lfg/", .https, "lfg.example.com", 443, "/lfg", "lfg.example.com"),
            ("HTTPS://lfg.example.com:8443", .https, "lfg.example.com", 8443, "", "lfg.example.com:8443"),
            ("http://[::1]:9000/x", .http, "::1", 9000, "/x", "[::1]:9000"),
        ])
    func parses(url: String, scheme: ServerAddress.Scheme, host: String, port: UInt16, basePath: String, hostHeader: String) throws {
        let address = try ServerAddress(parsing: url)
        #expect(address.scheme == scheme)
        #expect(address.host == host)
        #expect(address.port == port)
        #expect(address.basePath == basePath)
        #expect(address.hostHeader == hostHeader)
        #expect(address.needsTLS == (scheme == .https))
    }

    @Test(
        "A URL the agent cannot use is refused, naming what is wrong",
        arguments: [
            ("ftp://host", "http:// or https://"), ("127.0.0.1:8080", "http:// or https://"), ("http://", "no host"),
            ("http://host:0", "port '0'"), ("http://host:99999", "port '99999'"), ("http://host:x", "port 'x'"),
            ("http://user@host", "without ?, #, @"), ("http://host/?a=1", "without ?, #, @"), ("http://[::1", "closing ]"),
        ])
    func refuses(url: String, problem: String) {
        #expect {
            try ServerAddress(parsing: url)
        } throws: { error in
            let description = "\(error)"
            return description.contains(problem) && description.contains("LFG_URL '\(url)'")
        }
    }

    @Test("The plain request is one PUT with Host, length, token and Connection: close; the host name is one encoded segment")
    func request() throws {
        let address = try ServerAddress(parsing: "http://10.0.0.5:8080/lfg")
        let bytes = HeartbeatMessage.request(to: address, host: "ann's mbp/2", token: "t0ken", ttlSeconds: 59.5)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "PUT /lfg/api/hosts/ann%27s%20mbp%2F2 HTTP/1.1\r\nHost: 10.0.0.5:8080\r\nUser-Agent: lfg-host\r\n"
                + "Content-Type: application/json\r\nContent-Length: 17\r\nAuthorization: Bearer t0ken\r\nConnection: close\r\n\r\n"
                + #"{"ttlSeconds":60}"#)
        let anonymous = String(decoding: HeartbeatMessage.request(to: address, host: "h", token: nil, ttlSeconds: 60), as: UTF8.self)
        #expect(!anonymous.contains("Authorization"))
    }

    @Test("The answer's status line is read once complete; anything else is malformed")
    func answer() {
        #expect(HeartbeatMessage.answer([]) == .incomplete)
        #expect(HeartbeatMessage.answer(Array("HTTP/1.1 20".utf8)) == .incomplete)
        #expect(HeartbeatMessage.answer(Array("HTTP/1.1 204 No Content\r\n".utf8)) == .status(204))
        #expect(HeartbeatMessage.answer(Array("HTTP/1.0 401 Unauthorized\r\nContent-Length: 0\r\n\r\n".utf8)) == .status(401))
        #expect(HeartbeatMessage.answer(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)) == .malformed("'SSH-2.0-OpenSSH_9.2'"))
        #expect(HeartbeatMessage.answer(Array("HTTP/1.1 2000 OK\n".utf8)) == .malformed("'HTTP/1.1 2000 OK'"))
        #expect(HeartbeatMessage.answer([UInt8](repeating: 65, count: 1025)) == .malformed("an over-long first line"))
    }

    @Test("lfg host runs the plain-socket lfg-host for http:// and the libcurl lfg-host-tls only for https://")
    func residentProgram() throws {
        #expect(HostCommand.residentProgram(for: try ServerAddress(parsing: "http://192.168.1.20:8080")) == "lfg-host")
        #expect(HostCommand.residentProgram(for: try ServerAddress(parsing: "https://lfg.example.com")) == "lfg-host-tls")
    }
}
