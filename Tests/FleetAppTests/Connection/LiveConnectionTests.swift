import FleetApp
import FleetCore
import Testing

/// The connection reducer, event by event, with every effect and status checked.
@Suite struct LiveConnectionTests {
    let policy = LiveConnectionPolicy()
    static let sessionBytes = ServerSentEventParser.Output.event(
        ServerSentEvent(name: "session", data: #"{"sid":"a","deleted":true}"#))

    /// A connection foregrounded at 100 whose stream opened at 101 and whose first fetch answered.
    func live() -> LiveConnection {
        var connection = LiveConnection()
        _ = connection.handle(.foregrounded(at: 100))
        _ = connection.handle(.streamOpened(at: 101))
        _ = connection.handle(.fetchAnswered(nil, at: 101))
        return connection
    }

    @Test("Foregrounding opens the stream and fetches once; the stream's opening makes it live without a second fetch")
    func foregroundOpensAndFetches() {
        var connection = LiveConnection()
        #expect(connection.status == .paused)
        #expect(connection.handle(.foregrounded(at: 100)) == [.openStream, .fetchSessions])
        #expect(connection.status == .connecting)
        #expect(connection.handle(.foregrounded(at: 100)) == [])
        #expect(connection.handle(.streamOpened(at: 101)) == [])  // the foreground fetch is still in flight
        #expect(connection.status == .live(since: 101))
        #expect(connection.handle(.fetchAnswered(nil, at: 101)) == [])
        #expect(connection.status == .live(since: 101))
    }

    @Test("Events on the stream become model changes; comments only prove the stream is alive")
    func eventsApplyCommentsKeepAlive() {
        var connection = live()
        let effects = connection.handle(.streamReceived([.comment("keepalive"), Self.sessionBytes], at: 130))
        #expect(effects == [.apply(.sessionRemoved("a"))])
        #expect(connection.nextDeadline == 130 + policy.silenceLimit)
    }

    @Test("A drop fetches at once and reconnects after 1 s; the fetch answering shows polling, not live")
    func dropFallsBackToFetches() {
        var connection = live()
        #expect(connection.handle(.streamEnded(.unreachable("reset"), at: 200)) == [.fetchSessions])
        #expect(connection.status == .reconnecting(since: 200, reason: ControlPlaneError.unreachable("reset").description))
        #expect(connection.nextDeadline == 201)
        #expect(connection.handle(.fetchAnswered(nil, at: 200.5)) == [])
        guard case .polling(since: 200, lastFetch: 200.5, _) = connection.status else {
            Issue.record("expected polling, got \(connection.status)")
            return
        }
        #expect(connection.handle(.deadlineReached(at: 200.9)) == [])
        #expect(connection.handle(.deadlineReached(at: 201)) == [.openStream])
        // Refused again: the next wait doubles (2 s), and the fallback fetch runs every 15 s meanwhile.
        #expect(connection.handle(.streamEnded(.unreachable("refused"), at: 201.2)) == [.fetchSessions])
        #expect(connection.nextDeadline == 203.2)
        _ = connection.handle(.fetchAnswered(nil, at: 201.3))
        #expect(connection.handle(.deadlineReached(at: 203.2)) == [.openStream])
        #expect(connection.handle(.streamOpened(at: 203.4)) == [.fetchSessions])  // resync what was missed
        #expect(connection.status == .live(since: 203.4))
    }

    @Test("When neither the stream nor a fetch gets through, the status says unreachable since the drop, with the last contact")
    func unreachableIsHonest() {
        var connection = live()
        _ = connection.handle(.streamReceived([.comment("keepalive")], at: 150))
        _ = connection.handle(.streamEnded(nil, at: 200))
        _ = connection.handle(.fetchAnswered(.unreachable("connection refused"), at: 200.1))
        #expect(connection.status == .unreachable(
            since: 200, lastContact: 150, reason: ControlPlaneError.unreachable("connection refused").description))
        #expect(!connection.status.isLive)
        #expect(connection.status.detail(now: 500)?.contains("Showing what it knew 5m ago") == true)
        // The fallback fetch comes back every 15 s, the reconnection after its own wait.
        #expect(connection.handle(.deadlineReached(at: 201)) == [.openStream])
        #expect(connection.handle(.deadlineReached(at: 215.1)) == [.fetchSessions])
    }

    @Test("An open stream silent for 45 s is dropped: not at 44.9 s, at 45 s")
    func silenceDropsTheStream() {
        var connection = live()
        _ = connection.handle(.streamReceived([.comment("keepalive")], at: 110))
        #expect(connection.nextDeadline == 155)
        #expect(connection.handle(.deadlineReached(at: 154.9)) == [])
        #expect(connection.status.isLive)
        #expect(connection.handle(.deadlineReached(at: 155)) == [.closeStream, .fetchSessions])
        guard case .reconnecting(since: 155, let reason) = connection.status else {
            Issue.record("expected reconnecting, got \(connection.status)")
            return
        }
        #expect(reason.contains("no word from the server for 45 s"))
    }

    @Test("A 401 on the stream or a fetch stops everything until the settings change")
    func refusalStopsRetries() {
        var connection = live()
        #expect(connection.handle(.streamEnded(.rejected(status: 401, message: "revoked"), at: 200)) == [])
        guard case .refused = connection.status else { Issue.record("expected refused, got \(connection.status)"); return }
        #expect(connection.nextDeadline == nil)
        #expect(connection.handle(.backgrounded(at: 210)) == [])
        #expect(connection.handle(.foregrounded(at: 220)) == [])
        #expect(connection.handle(.settingsChanged(at: 230)) == [.openStream, .fetchSessions])
        #expect(connection.status == .connecting)

        var fetching = live()
        _ = fetching.handle(.streamEnded(nil, at: 300))
        #expect(fetching.handle(.fetchAnswered(.rejected(status: 401, message: "revoked"), at: 301)) == [])
        guard case .refused = fetching.status else { Issue.record("expected refused, got \(fetching.status)"); return }
    }

    @Test("The background closes the stream, forgets the timers and shows paused; late signals change nothing")
    func backgroundCloses() {
        var connection = live()
        #expect(connection.handle(.backgrounded(at: 200)) == [.closeStream])
        #expect(connection.status == .paused)
        #expect(connection.nextDeadline == nil)
        #expect(connection.handle(.streamEnded(nil, at: 201)) == [])
        #expect(connection.handle(.streamReceived([Self.sessionBytes], at: 201)) == [])
        #expect(connection.handle(.fetchAnswered(nil, at: 202)) == [])
        #expect(connection.status == .paused)
    }

    @Test("The reconnection wait doubles from 1 s and stops at 30 s")
    func backoffDoubles() {
        #expect((1...7).map { policy.reconnectDelay(attempt: $0) } == [1, 2, 4, 8, 16, 30, 30])
        #expect(policy.reconnectDelay(attempt: 10_000) == 30)
    }
}
