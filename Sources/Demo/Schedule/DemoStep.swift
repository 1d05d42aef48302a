import FleetCore

/// One thing that happens in the demo: a simulated host reports, or the simulated person uses the phone.
public enum DemoAction: Hashable, Sendable {
    /// The person opens the app (a fresh launch in the foreground: iOS evicted it since the last visit).
    case openApp
    /// The person leaves the app: it is backgrounded and suspended, so only server pushes move the card.
    case leaveApp
    /// A host's heartbeat (`PUT /api/hosts/{host}`).
    case heartbeat(HostID)
    /// A host drops off the network: its heartbeats stop (the schedule leaves them out until it is back).
    case hostGoesDown(HostID)
    /// A host is back: it sends a heartbeat at once.
    case hostComesBack(HostID)
    /// A session starts a turn (`PUT /api/sessions/{sid}` with `busy: true`).
    case startSession(SessionID, title: String, host: HostID, cwd: String)
    /// The session asks the person something (`PATCH` a prompt in).
    case ask(SessionID, Prompt)
    /// The person answers at the terminal (`PATCH` the prompt out).
    case answer(SessionID)
    /// The person answers the session's question alert on the phone, tapping the button for `answer`; the
    /// waiting agent is released once the server has the answer.
    case answerFromPhone(SessionID, String)
    /// The turn ends: the session goes idle with an unread reply.
    case finish(SessionID)
    /// The session is archived and leaves every list.
    case archive(SessionID)

    /// The session this action is about, if any.
    public var sid: SessionID? {
        switch self {
        case .startSession(let sid, _, _, _), .ask(let sid, _), .answer(let sid), .answerFromPhone(let sid, _),
            .finish(let sid), .archive(let sid):
            sid
        case .openApp, .leaveApp, .heartbeat, .hostGoesDown, .hostComesBack:
            nil
        }
    }

    /// The same action about another session (how each cycle of the script gets fresh session ids).
    func renamingSession(_ rename: (SessionID) -> SessionID) -> DemoAction {
        switch self {
        case .startSession(let sid, let title, let host, let cwd):
            .startSession(rename(sid), title: title, host: host, cwd: cwd)
        case .ask(let sid, let prompt):
            // A question id is fresh each cycle too: an answered question never asks again.
            .ask(rename(sid), Self.renaming(prompt, rename))
        case .answer(let sid): .answer(rename(sid))
        case .answerFromPhone(let sid, let answer): .answerFromPhone(rename(sid), answer)
        case .finish(let sid): .finish(rename(sid))
        case .archive(let sid): .archive(rename(sid))
        case .openApp, .leaveApp, .heartbeat, .hostGoesDown, .hostComesBack: self
        }
    }
}

extension DemoAction {
    static func renaming(_ prompt: Prompt, _ rename: (SessionID) -> SessionID) -> Prompt {
        var renamed = prompt
        renamed.id = prompt.id.map { rename(SessionID($0)).rawValue }
        return renamed
    }
}

/// An action at a moment of the demo, in seconds since it started.
public struct DemoStep: Hashable, Sendable {
    /// Seconds since the demo started.
    public var at: Double
    public var action: DemoAction

    public init(at: Double, _ action: DemoAction) {
        self.at = at
        self.action = action
    }
}
