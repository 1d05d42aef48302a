import FleetCore

/// One notification action as the app registers it: a button, or a button that opens a text field.
public struct NotificationActionDescription: Hashable, Sendable {
    /// What a text-input action shows: its send button and the field's placeholder.
    public struct TextInput: Hashable, Sendable {
        public var buttonTitle: String
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }
    }

    public var identifier: String
    public var title: String
    /// Drawn in red (a "Deny").
    public var isDestructive: Bool
    /// Set for the text-input action only.
    public var textInput: TextInput?

    public init(identifier: String, title: String, isDestructive: Bool, textInput: TextInput? = nil) {
        self.identifier = identifier
        self.title = title
        self.isDestructive = isDestructive
        self.textInput = textInput
    }
}

/// One notification category: an identifier and its actions, in order.
public struct NotificationCategoryDescription: Hashable, Sendable {
    public var identifier: String
    public var actions: [NotificationActionDescription]

    public init(identifier: String, actions: [NotificationActionDescription]) {
        self.identifier = identifier
        self.actions = actions
    }
}

/// The notification categories of question alerts (contract 8.2: `aps.category` is one per kind) and the
/// actions in them, described once so the Apple adapter registers them and ``QuestionResponse`` reads
/// them back with the same identifiers.
///
/// iOS fixes a category's button titles when it is registered, but a choice question's options are only
/// known when its alert arrives. So the three categories registered at launch are the fallback (confirm:
/// Allow / Deny; choice and text: a reply field, where a choice also takes an option's number), and the
/// notification service extension (the alert has `mutable-content: 1`) registers ``category(for:)`` per
/// question, with its real options as up to ``maximumChoiceButtons`` buttons, and points the alert at it.
public enum QuestionCategories {
    /// The most option buttons a notification shows (iOS draws at most four actions in most places).
    public static let maximumChoiceButtons = 4
    /// Option `i`'s action identifier is this prefix followed by `i` (0-based).
    public static let optionActionPrefix = "LFG_ANSWER_OPTION_"
    /// The extra action of a permission that may be allowed for good.
    public static let alwaysAllowAction = "LFG_ANSWER_ALWAYS"
    /// The reply field's action.
    public static let textAction = "LFG_ANSWER_TEXT"
    /// Per-question categories kept registered besides the three fixed ones, newest first.
    public static let retainedQuestionCategories = 16

    /// The categories the app registers at launch: one per question kind.
    public static var registered: [NotificationCategoryDescription] {
        Question.Kind.allCases.map { kind in
            let identifier = QuestionNotificationNames.category(kind)
            switch kind {
            case .confirm:
                return NotificationCategoryDescription(
                    identifier: identifier, actions: optionActions(Question.permissionOptions))
            case .choice:
                return NotificationCategoryDescription(
                    identifier: identifier, actions: [textAction(placeholder: "The option, or its number")])
            case .text:
                return NotificationCategoryDescription(identifier: identifier, actions: [textAction(placeholder: "Your answer")])
            }
        }
    }

    /// The category registered at launch for questions of `kind` (what an alert shows when no per-question
    /// category was made for it).
    public static func fixedCategory(of kind: Question.Kind) -> NotificationCategoryDescription {
        let identifier = QuestionNotificationNames.category(kind)
        return registered.first { $0.identifier == identifier }
            ?? NotificationCategoryDescription(identifier: identifier, actions: [])
    }

    /// The category made for one question's alert: its options as buttons (confirm: its two labels, choice:
    /// the first ``maximumChoiceButtons``, then a reply field when it has more), "Always allow" where it is
    /// accepted, a reply field for text. Its identifier is the kind's category, a dot and the question id.
    public static func category(for alert: QuestionAlert) -> NotificationCategoryDescription {
        let identifier = QuestionNotificationNames.category(alert.kind) + "." + alert.questionId.rawValue
        switch alert.kind {
        case .confirm:
            var actions = optionActions(alert.options)
            if alert.canAlwaysAllow {
                actions.insert(
                    NotificationActionDescription(
                        identifier: alwaysAllowAction, title: Question.alwaysAllowAnswer, isDestructive: false),
                    at: min(1, actions.count))
            }
            return NotificationCategoryDescription(identifier: identifier, actions: actions)
        case .choice:
            var actions = optionActions(Array(alert.options.prefix(maximumChoiceButtons)))
            if alert.options.count > maximumChoiceButtons {
                actions.append(textAction(placeholder: "The option, or its number"))
            }
            return NotificationCategoryDescription(identifier: identifier, actions: actions)
        case .text:
            return NotificationCategoryDescription(identifier: identifier, actions: [textAction(placeholder: "Your answer")])
        }
    }

    /// The categories to register after adding `added`: the fixed three, then the newest per-question
    /// ones (at most ``retainedQuestionCategories``), so registering one per alert never grows without end.
    public static func merging(_ added: NotificationCategoryDescription, into existing: [NotificationCategoryDescription])
        -> [NotificationCategoryDescription]
    {
        let fixed = Set(registered.map(\.identifier))
        let perQuestion = existing.filter { !fixed.contains($0.identifier) && $0.identifier != added.identifier }
        return registered + [added] + perQuestion.prefix(retainedQuestionCategories - 1)
    }

    static func optionActions(_ options: [String]) -> [NotificationActionDescription] {
        options.enumerated().map { index, option in
            NotificationActionDescription(
                identifier: optionActionPrefix + "\(index)", title: option,
                // The second option of a confirm question is the refusal (Deny, Keep planning).
                isDestructive: option == Question.permissionOptions[1])
        }
    }

    static func textAction(placeholder: String) -> NotificationActionDescription {
        NotificationActionDescription(
            identifier: textAction, title: "Reply", isDestructive: false,
            textInput: .init(buttonTitle: "Send", placeholder: placeholder))
    }
}
