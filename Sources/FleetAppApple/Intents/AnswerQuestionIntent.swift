#if canImport(ActivityKit) && canImport(AppIntents)
import AppIntents
import FleetApp
import FleetCore

/// How an answer from the card reaches the app's engine: the app registers one at launch
/// (`AppDependencyManager.shared.add(dependency: CardAnswerRoute { ... })`) and the intent resolves it
/// (`@AppDependency`).
public struct CardAnswerRoute: Sendable {
    /// Posts the answer (through ``FleetAppDriver/answerQuestion(_:with:sid:)``) and returns once the
    /// call is done, so iOS keeps the process alive until the answer is out.
    public let answer: @Sendable (QuestionID, String, SessionID) async -> Void

    public init(answer: @escaping @Sendable (QuestionID, String, SessionID) async -> Void) { self.answer = answer }

    /// Registers, for every ``AnswerQuestionIntent``, the route through `driver`: call once at launch.
    @MainActor
    public static func register(driver: FleetAppDriver) {
        let route = CardAnswerRoute { id, answer, sid in
            await driver.answerQuestion(id, with: answer, sid: sid)
            await driver.waitForCalls()
        }
        AppDependencyManager.shared.add(dependency: route)
    }
}

/// A button on the fleet card's Lock Screen that answers its confirm question (Allow / Deny) without
/// opening the app. A `LiveActivityIntent` (iOS 17) runs in the app's process, where the engine lives.
@available(iOS 17.0, *)
public struct AnswerQuestionIntent: LiveActivityIntent {
    public static let title: LocalizedStringResource = "Answer the agent"
    public static let description = IntentDescription("Answers the question the fleet card shows.")
    public static let isDiscoverable = false

    @Parameter(title: "Question") public var questionId: String
    @Parameter(title: "Session") public var sid: String
    @Parameter(title: "Answer") public var answer: String

    @AppDependency var route: CardAnswerRoute

    public init() {}

    /// The intent of the button labelled `answer` for the card's `question`.
    public init(question: CardQuestion, answer: String) {
        questionId = question.id.rawValue
        sid = question.sid.rawValue
        self.answer = answer
    }

    public func perform() async throws -> some IntentResult {
        await route.answer(QuestionID(questionId), answer, SessionID(sid))
        return .result()
    }
}
#endif
