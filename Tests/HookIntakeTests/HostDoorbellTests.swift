#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import HookIntake
import Testing

@Suite("Host doorbell")
struct HostDoorbellTests {
    @Test("Nobody listening: a ring says so")
    func ringWithoutHost() throws {
        let home = try TemporaryHome()
        #expect(HostDoorbell(home: home.path).ring(sessionKey: "s1") == false)
    }

    @Test("A listening host hears each session rung, once per session, in ring order")
    func ringReachesListener() throws {
        let home = try TemporaryHome()
        let listener = try HostDoorbell.Listener(home: home.path)
        let doorbell = HostDoorbell(home: home.path)
        #expect(listener.waitForRing(timeoutSeconds: 0) == false)
        #expect(doorbell.ring(sessionKey: "b"))
        #expect(doorbell.ring(sessionKey: "a"))
        #expect(doorbell.ring(sessionKey: "b"))
        #expect(listener.waitForRing(timeoutSeconds: 5))
        #expect(listener.receiveKeys() == HostDoorbell.Listener.Rings(keys: ["b", "a"], everySession: false))
        #expect(listener.receiveKeys() == HostDoorbell.Listener.Rings(keys: [], everySession: false))
        #expect(doorbell.ring(sessionKey: ""))
        #expect(listener.receiveKeys() == HostDoorbell.Listener.Rings(keys: [], everySession: true))
    }

    @Test("The socket is private to its owner and gone when the listener is")
    func socketModeAndCleanup() throws {
        let home = try TemporaryHome()
        let path = home.path + "/" + HostDoorbell.fileName
        do {
            let listener = try HostDoorbell.Listener(home: home.path)
            var status = stat()
            #expect(stat(path, &status) == 0)
            #expect(status.st_mode & 0o777 == 0o600)
            #expect(listener.path == path)
        }
        #expect(access(path, F_OK) != 0)
        #expect(HostDoorbell(home: home.path).ring(sessionKey: "s") == false)
    }

    @Test("A socket left by a host that died counts as nobody, and a new host replaces it")
    func staleSocketReplaced() throws {
        let home = try TemporaryHome()
        let path = home.path + "/" + HostDoorbell.fileName
        // A host killed with -9 leaves its socket file behind: bind one, then close it without unlinking.
        let dead = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(dead, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(dead)
        #expect(access(path, F_OK) == 0)
        #expect(HostDoorbell(home: home.path).ring(sessionKey: "s") == false)

        let listener = try HostDoorbell.Listener(home: home.path)
        #expect(HostDoorbell(home: home.path).ring(sessionKey: "s"))
        #expect(listener.receiveKeys().keys == ["s"])
    }

    @Test("isListening finds a live host without waking it, and counts a left-behind socket as nobody")
    func listeningCheck() throws {
        let home = try TemporaryHome()
        let doorbell = HostDoorbell(home: home.path)
        #expect(doorbell.isListening() == false)
        do {
            let listener = try HostDoorbell.Listener(home: home.path)
            #expect(doorbell.isListening())
            #expect(listener.waitForRing(timeoutSeconds: 0) == false)  // asking rang nothing
        }
        #expect(doorbell.isListening() == false)
    }

    @Test("A second host on the same LFG_HOME is refused while the first listens")
    func secondListenerRefused() throws {
        let home = try TemporaryHome()
        let first = try HostDoorbell.Listener(home: home.path)
        #expect(throws: HostDoorbell.ListenerError.anotherHostListens(first.path)) {
            _ = try HostDoorbell.Listener(home: home.path)
        }
        #expect(HostDoorbell(home: home.path).ring(sessionKey: "still-first"))
        #expect(first.receiveKeys().keys == ["still-first"])
    }

    @Test("A home too long for a socket address: no ring, and a listener says what to change")
    func pathTooLong() throws {
        let home = "/tmp/" + String(repeating: "h", count: 120)
        #expect(HostDoorbell(home: home).ring(sessionKey: "s") == false)
        #expect(throws: HostDoorbell.ListenerError.pathTooLong(home + "/host.sock")) {
            _ = try HostDoorbell.Listener(home: home)
        }
        #expect("\(HostDoorbell.ListenerError.pathTooLong("p"))".contains("LFG_HOME"))
    }

    @Test("A host whose queue is full still counts as listening, and hears the rest when it reads")
    func fullQueueStillListening() throws {
        let home = try TemporaryHome()
        let listener = try HostDoorbell.Listener(home: home.path)
        let doorbell = HostDoorbell(home: home.path)
        for index in 0..<2_000 { #expect(doorbell.ring(sessionKey: "session-\(index)")) }
        let rings = listener.receiveKeys()
        #expect(!rings.keys.isEmpty)
        #expect(rings.keys.first == "session-0")
    }
}
