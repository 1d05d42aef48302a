import FleetCore

/// What the app tells the person about an answer it could not give (shown as a quiet notification in the
/// question's thread): someone was first, the question ended, or the server refused it.
public struct AnswerNotice: Hashable, Sendable {
    public var questionId: QuestionID
    public var sid: SessionID?
    /// One sentence for the person.
    public var text: String

    public init(questionId: QuestionID, sid: SessionID?, text: String) {
        self.questionId = questionId
        self.sid = sid
        self.text = text
    }

    /// The notice for a question that was no longer pending when this device's answer arrived (a 409).
    public init(notTaken question: Question) {
        let text: String
        switch question.state {
        case .answered where question.answeredBy == Question.answeredAtTerminal:
            text = "Answered at the terminal first" + Self.quoted(question.answer)
        case .answered:
            text = "Answered on another device first" + Self.quoted(question.answer)
        case .cancelled:
            text = "The question was settled at the terminal before your answer arrived"
        case .expired:
            text = "The question expired before your answer arrived"
        case .pending:
            text = "The server did not take your answer; open the app to try again"
        }
        self.init(questionId: question.id, sid: question.sid, text: text)
    }

    static func quoted(_ answer: String?) -> String { answer.map { ": \($0)" } ?? "" }
}
