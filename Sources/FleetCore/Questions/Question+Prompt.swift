extension Question {
    /// The options of a permission prompt's confirm question.
    public static let permissionOptions = ["Allow", "Deny"]
    /// The options of a plan prompt's confirm question.
    public static let planOptions = ["Approve", "Keep planning"]

    /// The longest question id, in UTF-8 bytes: it is the alerts' `apns-collapse-id`, which APNs caps at 64.
    public static let maximumIDBytes = 64

    /// The question `prompt` asks, or nil when it asks none: no `id` (or one over ``maximumIDBytes``, or
    /// with a `/`, which no URL path could name), or a `signin` (answered only in a browser).
    ///
    /// Mapping (contract 8.2): `permission` and `plan` are confirm questions with fixed options; a
    /// `question` with options is a choice, without is free text.
    /// - Parameter defaultLifetime: seconds until it expires when the prompt gives no `expiresAt`.
    public static func asked(by prompt: Prompt, in sid: SessionID, at now: UnixTime, defaultLifetime: Double) -> Question? {
        guard let id = prompt.id, !id.isEmpty, id.utf8.count <= maximumIDBytes, !id.contains("/") else { return nil }
        let kind: Kind
        let options: [String]
        switch prompt.kind {
        case .signin:
            return nil
        case .permission:
            (kind, options) = (.confirm, permissionOptions)
        case .plan:
            (kind, options) = (.confirm, planOptions)
        case .question:
            let choices = prompt.options ?? []
            (kind, options) = choices.isEmpty ? (.text, []) : (.choice, choices)
        }
        return Question(
            id: QuestionID(id), sid: sid, kind: kind, text: prompt.text, options: options, createdAt: now,
            expiresAt: prompt.expiresAt ?? now + defaultLifetime,
            canAlwaysAllow: prompt.kind == .permission && prompt.canAlwaysAllow == true)
    }
}
