// `lfg-host-tls`: the resident per-machine agent for `https://` servers, started by `lfg host`. The same
// agent as `lfg-host` (HostMain), with its heartbeat over libcurl for TLS; libcurl's libraries make it
// ~16 MB resident, which is why `http://` servers get the plain-socket `lfg-host` instead.
import HostAgent
import HostAgentCurl
import HostAgentPOSIX

HostMain.run(program: "lfg-host-tls") { address, host, token in
    guard let heartbeat = CurlHeartbeat(address: address, host: host, token: token) else {
        return .failure(HostStartError("libcurl could not start (curl_easy_init failed); reinstall libcurl4"))
    }
    return .success(heartbeat)
}
