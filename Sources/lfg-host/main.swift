// `lfg-host`: the resident per-machine agent for `http://` servers (loopback, a LAN), started by `lfg host`
// (which resolves the configuration the hooks use and execs this). Plain sockets, no libcurl, no Foundation,
// linked fully static in release builds on Linux: it stays under 5 MB resident (bench/host-idle.sh) and
// sleeps in one poll when idle. `https://` servers get `lfg-host-tls` (the same agent over libcurl).
import HostAgent
import HostAgentPOSIX

HostMain.run(program: "lfg-host") { address, host, token in
    guard !address.needsTLS else {
        return .failure(HostStartError("lfg-host speaks plain HTTP; an https:// LFG_URL needs lfg-host-tls (`lfg host` picks it)"))
    }
    return .success(SocketHeartbeat(address: address, host: host, token: token))
}
