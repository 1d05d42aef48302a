import FleetCore

extension DemoSchedule {
    /// Every word the demo's sessions say (titles, folders, questions, options, answers): what no push to a private
    /// device may carry. The APNs stand-in's leak check uses it as its fixture (contract 8.3).
    public var privateWords: [String] {
        script.flatMap { step -> [String] in
            switch step.action {
            case .startSession(_, let title, _, let cwd): [title, cwd]
            case .ask(_, let prompt): [prompt.text] + (prompt.options ?? [])
            // The fixed confirm labels ("Allow", "Deny", ...) are the app's words, not the person's: the card's
            // buttons carry them by design. Any other answer is the person's.
            case .answerFromPhone(_, let answer): (Question.permissionOptions + Question.planOptions).contains(answer) ? [] : [answer]
            case .openApp, .leaveApp, .heartbeat, .hostGoesDown, .hostComesBack, .answer, .finish, .archive: []
            }
        }
    }
}
