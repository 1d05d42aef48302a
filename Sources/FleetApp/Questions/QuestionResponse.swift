import FleetCore

/// What the person did with a question's alert, as the notification delegate hands it over.
public struct QuestionResponse: Hashable, Sendable {
    /// What was tapped.
    public enum Action: Hashable, Sendable {
        /// The alert itself (iOS's default action): open the session.
        case opened
        /// The alert was dismissed: nothing to send.
        case dismissed
        /// One of ``QuestionCategories``' actions, by identifier, with the text typed into a reply field.
        case action(String, typedText: String?)
    }

    public var alert: QuestionAlert
    public var action: Action

    public init(alert: QuestionAlert, action: Action) {
        self.alert = alert
        self.action = action
    }

    /// What the response asks the app to do.
    public enum Meaning: Hashable, Sendable {
        /// Post `answer` to question `id`.
        case answer(QuestionID, String)
        /// Open a place in the app.
        case open(AppLink)
        /// Nothing (a dismissal).
        case nothing
        /// The response cannot be an answer (an unknown action, an option past the list, a blank reply, a
        /// reply to a choice that names no option): the message says what to do instead. Nothing is sent.
        case unusable(String)
    }

    /// What the response means: an option button is that option, "Always allow" is
    /// ``Question/alwaysAllowAnswer``, a reply is its text (for a choice: the option it names, by number
    /// from 1 or by its words in any case).
    public var meaning: Meaning {
        switch action {
        case .opened: return .open(.session(alert.sid))
        case .dismissed: return .nothing
        case .action(let identifier, let typedText):
            if identifier == QuestionCategories.alwaysAllowAction {
                guard alert.canAlwaysAllow else { return .unusable("this question cannot be allowed for good") }
                return .answer(alert.questionId, Question.alwaysAllowAnswer)
            }
            if identifier.hasPrefix(QuestionCategories.optionActionPrefix) {
                guard let index = Int(identifier.dropFirst(QuestionCategories.optionActionPrefix.count)),
                    alert.options.indices.contains(index)
                else { return .unusable("that option is not in this question; open the app to answer") }
                return .answer(alert.questionId, alert.options[index])
            }
            guard identifier == QuestionCategories.textAction else {
                return .unusable("unknown action '\(identifier)'; update the app")
            }
            return reply(typedText ?? "")
        }
    }

    func reply(_ text: String) -> Meaning {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { return .unusable("the reply was empty; nothing was sent") }
        guard alert.kind == .choice else { return .answer(alert.questionId, text) }
        if let number = Int(trimmed), alert.options.indices.contains(number - 1) {
            return .answer(alert.questionId, alert.options[number - 1])
        }
        if let option = alert.options.first(where: { $0.lowercased() == trimmed.lowercased() }) {
            return .answer(alert.questionId, option)
        }
        return .unusable("'\(trimmed)' is none of the options (\(alert.options.joined(separator: ", "))); reply with one or its number")
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
