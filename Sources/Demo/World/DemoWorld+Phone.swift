import FleetApp
import FleetCore

/// The simulated phone's side of the world: its calls to the server, the pushes it receives, and what
/// its lock screen shows.
extension DemoWorld {
    /// Runs the phone up to `instant`: its due ActivityKit events and retries in time order, the pushes
    /// that arrived, and the calls they lead to.
    func runPhone(until instant: UnixTime) async {
        await receivePushes()
        while let next = [phone.nextDueTime, wakeAt, evictAt].compactMap({ $0 }).min(), next <= instant {
            clock.advance(to: next)
            if let wakeAt, wakeAt <= next {
                self.wakeAt = nil
                if !isAppOpen { wakeInBackground() }
            }
            if let evictAt, evictAt <= next {
                // An evicted app observes nothing: a card ended meanwhile is not news to the next process.
                self.evictAt = nil
                if !isAppOpen { phone.terminate() }
            }
            phone.runDue()
            await sendCalls()
        }
        clock.advance(to: instant)
        await receivePushes()
    }

    /// iOS launches (or resumes) the app in the background for a moment after a push-to-start.
    func wakeInBackground() {
        phone.launch(inForeground: false)
        evictAt = clock.now + Self.backgroundWindow
    }

    /// Makes every call the app queued, through the server's HTTP API, and hands it each answer.
    func sendCalls() async {
        let client = HTTPHandlerControlPlaneClient(api)
        var queued = phone.outbox.takeQueued()
        while !queued.isEmpty {
            for sent in queued {
                let result: Result<ControlPlaneReply, ControlPlaneError>
                do throws(ControlPlaneError) {
                    result = .success(try await client.perform(sent.call, on: server))
                } catch {
                    result = .failure(error)
                }
                phone.answer(sent.id, result)
                // What the answer set off now (a card requested, its token issued) runs before the next call.
                phone.runDue()
            }
            queued = phone.outbox.takeQueued()
        }
    }

    /// Hands the phone's iOS every push the stand-in accepted since the last look. A push-to-start
    /// that made a card wakes the app in the background for a moment, as iOS is meant to, so it can
    /// register the new card's update token (the wake the seed's idle phone misses).
    func receivePushes() async {
        let records = pushes.takeAll()
        guard !records.isEmpty else { return }
        for record in records {
            if let notification = ReceivedNotification.reading(record) {
                if PushToken(hex: record.token) == Self.alertToken { receive(notification) }
                continue
            }
            guard let (token, push) = ReceivedPush.reading(record) else { continue }
            switch push {
            case .start(let content):
                guard case .applied = phone.host.pushToStart(token: token, content: content), !isAppOpen else { break }
                let delay = schedule.wakeDelay(afterPushToStartAt: elapsed)
                if delay == 0 {
                    say(elapsed, "phone", "push-to-start: iOS shows a new card and wakes the app to register its token")
                    wakeInBackground()
                } else {
                    say(elapsed, "phone", "push-to-start: a new card, but iOS wakes the app only \(Int(delay)) s later "
                        + "(the idle phone): updates meanwhile go to the old card's token and are lost")
                    wakeAt = clock.now + delay
                }
            case .toCard(let push):
                phone.host.deliver(push, toUpdateToken: token)
            }
        }
        phone.runDue()
        await sendCalls()
    }

    // MARK: Narration

    static let noCard = "no card"

    /// Says what the lock screen shows when it changed since the last look.
    func narrateCardChange() {
        let summary = liveCards.first.map(Self.summary(of:)) ?? Self.noCard
        guard summary != lastCardSummary else { return }
        lastCardSummary = summary
        say(elapsed, "phone", "lock screen: " + summary)
    }

    /// One line for a card: its counts and rows.
    static func summary(of card: FleetActivity) -> String {
        let content = card.content
        var counts: [String] = []
        if content.needsInput > 0 { counts.append("\(content.needsInput) needs input") }
        if content.working > 0 { counts.append("\(content.working) working") }
        if let wordless = SurfaceLayout(content, on: .lockScreen).wordless {
            // A privacy push's card: no titles, only how many and where to go.
            return (counts.isEmpty ? ["nothing active"] : counts).joined(separator: ", ") + " | "
                + wordless.headline + ": " + wordless.guidance
        }
        let rows = content.rows.map { "\($0.title) (\($0.state == .needsInput ? "needs input" : "working"))" }
        let more = content.more > 0 ? ["\(content.more) more"] : []
        return (counts.isEmpty ? ["nothing active"] : counts).joined(separator: ", ") + " | "
            + (rows + more).joined(separator: "; ")
    }

    /// Who does what, for a host's step.
    static func narration(of action: DemoAction) -> (who: String, what: String)? {
        switch action {
        case .startSession(let sid, let title, let host, _): (host.rawValue, "\(sid) starts working: \(title)")
        case .ask(let sid, let prompt): ("agent", "\(sid) asks (\(prompt.kind.rawValue)): \(prompt.text)")
        case .answer(let sid): ("you", "answer \(sid); it works on")
        case .finish(let sid): ("agent", "\(sid) finishes and goes idle")
        case .archive(let sid): ("agent", "\(sid) is archived")
        case .hostComesBack(let host): (host.rawValue, "is back (heartbeat)")
        case .openApp, .leaveApp, .heartbeat, .hostGoesDown, .answerFromPhone: nil
        }
    }
}
