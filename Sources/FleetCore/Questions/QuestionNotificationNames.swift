/// The names a question's pushes carry and the app reads (contract 8.2): one definition for both sides.
public enum QuestionNotificationNames {
    /// `aps.category` of a question's alert; the app registers one notification category per kind.
    public static func category(_ kind: Question.Kind) -> String {
        switch kind {
        case .confirm: "LFG_QUESTION_CONFIRM"
        case .choice: "LFG_QUESTION_CHOICE"
        case .text: "LFG_QUESTION_TEXT"
        }
    }

    /// The top-level `event` of the background push that withdraws a question's alert.
    public static let updatedEvent = "question.updated"
}
