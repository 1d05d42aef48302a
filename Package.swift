// swift-tools-version:6.0
// LFG: one Live Activity per phone that shows what every coding agent is doing.
// Module map (dependencies point inward; FleetCore depends on nothing):
//   shared   FleetCore
//   APNs     APNs (pure) <- ES256OpenSSL, APNsHTTP2, APNsMock (adapters over HTTP2Wire: nghttp2 + sockets + TLS)
//   server   ControlPlane (watcher, routes, store protocol) <- StoreSQLite, HTTPServer, HTTPClient (adapters)
//            HTTPTypes (pure request/response/handler types both sides share)
//   app      FleetApp (ActivityKit behind a protocol) <- FleetAppApple (thin, Apple-only),
//            FleetAppTesting (in-memory ActivityKit, simulated phone: tests, Simulator and Demo only)
//   tools    Simulator, Diagnosis, HookAdapter, HTTPClient, Dashboard (the web page over ControlPlane),
//            Demo (simulated hosts and phone for `lfg serve --demo`)
//   cli      LFGCommand (every `lfg` subcommand) <- lfg (main.swift only)
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "LFG",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "lfg", targets: ["lfg"]),
        .executable(name: "lfg-hook", targets: ["lfg-hook"]),
        .executable(name: "lfg-host", targets: ["lfg-host"]),
        .executable(name: "lfg-host-tls", targets: ["lfg-host-tls"]),
        .library(name: "FleetCore", targets: ["FleetCore"]),
        .library(name: "FleetApp", targets: ["FleetApp"]),
        .library(name: "FleetAppApple", targets: ["FleetAppApple"]),
    ],
    targets: [
        // MARK: C libraries (system library targets: module map + shim header)
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "CCurlShims", dependencies: ["CCurl"], linkerSettings: [.linkedLibrary("curl")]),

        // MARK: shared
        .target(name: "FleetCore", swiftSettings: strict),
        // One line of every decision-log event, for tests of the schema's readers.
        .target(name: "FleetCoreTesting", dependencies: ["FleetCore"], swiftSettings: strict),
        // Bounded awaits for every test target: a hang becomes a named failing test.
        .target(name: "AsyncTesting", swiftSettings: strict),

        // MARK: APNs provider
        .target(name: "APNs", dependencies: ["FleetCore", "HTTPTypes"], swiftSettings: strict),
        .target(name: "OpenSSLSupport", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(name: "ES256OpenSSL", dependencies: ["APNs", "COpenSSL", "OpenSSLSupport"], swiftSettings: strict),
        .target(name: "HTTP2Wire", dependencies: ["CNGHTTP2", "COpenSSL", "OpenSSLSupport"], swiftSettings: strict),
        .target(name: "APNsHTTP2", dependencies: ["APNs", "HTTP2Wire"], swiftSettings: strict),
        .target(name: "APNsMock", dependencies: ["APNs", "ES256OpenSSL", "HTTP2Wire"], swiftSettings: strict),
        .target(name: "APNsTesting", dependencies: ["APNs"], swiftSettings: strict),
        // HPKE (RFC 9180) sealing of alert text to a device's key (privacy mode), on OpenSSL primitives.
        // Implements ControlPlane's AlertSealing (wired by `lfg serve`), so ControlPlane itself has no crypto.
        .target(
            name: "Sealing", dependencies: ["COpenSSL", "OpenSSLSupport", "FleetCore", "ControlPlane", "APNs"],
            swiftSettings: strict),

        // MARK: control plane
        .target(name: "HTTPTypes", dependencies: ["FleetCore"], swiftSettings: strict),
        // Our own HTTP/1.1 server on epoll; CEpoll brings in the epoll/eventfd/accept4 declarations.
        .target(name: "CEpoll"),
        .target(name: "HTTPServer", dependencies: ["HTTPTypes", "CEpoll"], swiftSettings: strict),
        .target(name: "HTTPClient", dependencies: ["HTTPTypes", "CCurl", "CCurlShims"], swiftSettings: strict),
        .target(name: "ControlPlane", dependencies: ["FleetCore", "APNs", "HTTPTypes"], swiftSettings: strict),
        // The tables and their mapping, shared by both SQL stores (one source, two dialects of migrations).
        .target(name: "StoreSQL", dependencies: ["ControlPlane", "APNs", "FleetCore", "HTTPTypes"], swiftSettings: strict),
        .target(name: "StoreSQLite", dependencies: ["ControlPlane", "StoreSQL", "CSQLite"], swiftSettings: strict),
        // `LFG_DATABASE_URL`: several `lfg serve` instances on one PostgreSQL database (contract 8.4).
        .target(name: "StorePostgres", dependencies: ["ControlPlane", "StoreSQL", "CPostgres"], swiftSettings: strict),
        .target(name: "ControlPlaneTesting", dependencies: ["ControlPlane", "APNs", "AsyncTesting"], swiftSettings: strict),

        // MARK: app side
        .target(name: "FleetApp", dependencies: ["FleetCore", "HTTPTypes"], swiftSettings: strict),
        .target(name: "FleetAppApple", dependencies: ["FleetApp", "FleetCore"], swiftSettings: strict),
        // The in-memory ActivityKit, simulated phone and virtual clock: never linked into the app.
        .target(name: "FleetAppTesting", dependencies: ["FleetApp", "FleetCore"], swiftSettings: strict),

        // MARK: tools
        .target(name: "Simulator", dependencies: ["FleetCore", "ControlPlane", "FleetApp", "FleetAppTesting", "APNs"], swiftSettings: strict),
        .target(name: "Diagnosis", dependencies: ["FleetCore"], swiftSettings: strict),
        .target(name: "Dashboard", dependencies: ["FleetCore", "ControlPlane", "HTTPTypes", "QRCode"], swiftSettings: strict),
        // QR codes (the pairing link) by libqrencode, drawn for a terminal, as SVG and as PNG.
        .target(name: "QRCode", dependencies: ["CQREncode"], swiftSettings: strict),
        // Reads a drawn code back with zbarimg: tests only.
        .target(name: "QRCodeTesting", dependencies: ["QRCode", "AsyncTesting"], swiftSettings: strict),
        .target(
            name: "Demo",
            dependencies: ["FleetCore", "FleetApp", "FleetAppTesting", "HTTPTypes", "HTTPClient", "APNsMock", "Sealing"],
            swiftSettings: strict),
        // Foundation-free: what a hook's fast start and `lfg host` share (inbox record, doorbell, agent process).
        .target(name: "HookIntake", dependencies: ["FleetCore"], swiftSettings: strict),
        .target(name: "HookAdapter", dependencies: ["FleetCore", "HookIntake", "HTTPTypes", "HTTPClient"], swiftSettings: strict),
        // `lfg host`, the per-machine agent: its pure reducer and service files (no Foundation, no I/O).
        .target(name: "HostAgent", dependencies: ["FleetCore", "HookIntake"], swiftSettings: strict),
        // Its POSIX edges: one poll loop, pidfd / kqueue process watch, plain-socket heartbeat, child spawn.
        // No Foundation, no libcurl.
        .target(name: "CHostShims"),
        .target(name: "HostAgentPOSIX", dependencies: ["HostAgent", "HookIntake", "FleetCore", "CHostShims"], swiftSettings: strict),
        // The heartbeat over libcurl, for https:// servers (`lfg-host-tls` only).
        .target(name: "HostAgentCurl", dependencies: ["HostAgentPOSIX", "HostAgent", "FleetCore", "CCurl", "CCurlShims"], swiftSettings: strict),

        // MARK: command line
        .target(
            name: "LFGCommand",
            dependencies: [
                "FleetCore", "APNs", "ES256OpenSSL", "APNsHTTP2", "APNsMock", "HTTPServer", "HTTPClient",
                "ControlPlane", "StoreSQLite", "StorePostgres", "Simulator", "Diagnosis", "HookAdapter", "Dashboard", "Demo",
                "Sealing",
                "HostAgent",
                "QRCode",
            ],
            swiftSettings: strict
        ),
        .target(name: "LFGCommandTesting", dependencies: ["LFGCommand"], swiftSettings: strict),
        .executableTarget(name: "lfg", dependencies: ["LFGCommand"], swiftSettings: strict),
        // `lfg host`'s resident process for http:// servers (`lfg host` execs it): no Foundation, no libcurl,
        // fully static in release builds on Linux (no shared library pages: under 5 MB resident,
        // bench/host-idle.sh); the Swift runtime linked in otherwise.
        .executableTarget(
            name: "lfg-host", dependencies: ["HostAgentPOSIX", "HostAgent"], swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release)),
                .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .debug)),
            ]),
        // The same resident process for https:// servers: its heartbeat goes through libcurl for TLS.
        .executableTarget(
            name: "lfg-host-tls", dependencies: ["HostAgentCurl", "HostAgentPOSIX", "HostAgent"], swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]),
        // The hook's cheap start: no Foundation, so a burst of hooks costs little CPU (see HookIntake).
        // Linked fully static in release builds on Linux: no dynamic loader work at start (half its CPU).
        .executableTarget(
            name: "lfg-hook", dependencies: ["HookIntake"], swiftSettings: strict,
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux], configuration: .release))]),

        // MARK: tests (one target per module)
        .testTarget(name: "FleetCoreTests", dependencies: ["FleetCore", "FleetCoreTesting"], swiftSettings: strict),
        .testTarget(name: "AsyncTestingTests", dependencies: ["AsyncTesting"], swiftSettings: strict),
        .testTarget(
            name: "APNsTests",
            dependencies: ["APNs", "ES256OpenSSL", "APNsHTTP2", "APNsMock", "HTTP2Wire", "APNsTesting", "AsyncTesting"],
            swiftSettings: strict
        ),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPClient", "AsyncTesting"], swiftSettings: strict),
        .testTarget(
            name: "ControlPlaneTests",
            dependencies: [
                "ControlPlane", "ControlPlaneTesting", "AsyncTesting", "StoreSQLite", "StorePostgres", "StoreSQL", "HTTPServer", "HTTPClient", "APNs",
                "APNsMock", "ES256OpenSSL", "LFGCommand", "FleetApp", "FleetAppTesting", "FleetCoreTesting", "QRCode", "QRCodeTesting", "Sealing",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FleetAppTests",
            dependencies: [
                "FleetApp", "FleetAppTesting", "FleetCore", "HTTPTypes", "ControlPlane", "ControlPlaneTesting", "APNs",
                "Sealing",
                "HTTPServer", "HTTPClient", "AsyncTesting",  // the live connection against a real server on loopback
            ],
            swiftSettings: strict),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator"], swiftSettings: strict),
        .testTarget(name: "DiagnosisTests", dependencies: ["Diagnosis", "FleetCore", "FleetCoreTesting"], swiftSettings: strict),
        .testTarget(
            name: "DemoTests",
            dependencies: ["Demo", "LFGCommand", "FleetApp", "FleetCore", "ControlPlane", "APNsMock", "HTTPTypes"],
            swiftSettings: strict),
        .testTarget(
            name: "DashboardTests", dependencies: ["Dashboard", "ControlPlane", "FleetCore", "FleetCoreTesting", "HTTPTypes"],
            swiftSettings: strict),
        .testTarget(
            name: "HookAdapterTests",
            dependencies: ["HookAdapter", "LFGCommand", "LFGCommandTesting", "HTTPServer", "HTTPTypes", "AsyncTesting"], swiftSettings: strict),
        .testTarget(name: "HookIntakeTests", dependencies: ["HookIntake", "FleetCore", "AsyncTesting"], swiftSettings: strict),
        .testTarget(
            name: "HostAgentTests",
            dependencies: ["HostAgent", "HostAgentPOSIX", "HostAgentCurl", "HookIntake", "LFGCommand", "LFGCommandTesting", "AsyncTesting", "HTTPServer", "HTTPTypes"],
            swiftSettings: strict),
        .testTarget(
            name: "SealingTests", dependencies: ["Sealing", "ControlPlane", "APNs", "FleetCore"], swiftSettings: strict),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "QRCodeTesting"], swiftSettings: strict),
        .testTarget(
            name: "LFGCommandTests", dependencies: ["LFGCommand", "LFGCommandTesting", "AsyncTesting", "HTTPServer"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
