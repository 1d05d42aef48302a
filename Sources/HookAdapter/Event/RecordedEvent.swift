import FleetCore

/// An event as the hook records it in the inbox: the fields the adapter reads (under the agent's own
/// names, so ``HookEvent/decode(root:)`` reads it back) and the host that saw it.
///
/// Only those fields are kept: a `PostToolUse` can carry a whole file as `tool_response`, and the
/// record is written on every tool call.
public struct RecordedEvent: Hashable, Sendable {
    public var event: HookEvent
    /// The host the event's reports name (the recording machine's, not the deliverer's).
    public var host: HostID
    /// Unix seconds when it was recorded.
    public var recordedAt: UnixTime

    public init(event: HookEvent, host: HostID, recordedAt: UnixTime) {
        self.event = event
        self.host = host
        self.recordedAt = recordedAt
    }

    /// The record as one line of JSON.
    public func encoded() -> String {
        var fields = JSONObject()
        fields["hook_event_name"] = .string(event.name.rawValue)
        fields["session_id"] = .string(event.sessionID)
        let optional: [(String, String?)] = [
            ("cwd", event.cwd), ("agent_id", event.agentID), ("prompt", event.prompt),
            ("session_title", event.sessionTitle), ("tool_name", event.toolName), ("tool_use_id", event.toolUseID),
            ("notification_type", event.notificationType), ("message", event.message), ("source", event.source),
            ("error", event.error),
        ]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        if event.toolInput != .null { fields["tool_input"] = event.toolInput }
        if let asked = event.askedQuestion { fields[AskedQuestion.recordKey] = asked.json }
        if event.backgroundWork > 0 { fields["background_tasks"] = .array(Array(repeating: .null, count: event.backgroundWork)) }
        let record: JSONObject = [
            "host": .string(host.rawValue), "recordedAt": .number(String(recordedAt)), "event": .object(fields),
        ]
        return JSONValue.object(record).compactPrinted()
    }

    /// Reads a record back; nil when it is not one (a damaged file is skipped, never retried).
    public static func decode(_ text: String) -> RecordedEvent? {
        guard let root = try? JSONParser.parse(text), let payload = root["event"],
            let event = try? HookEvent.decode(root: payload)
        else { return nil }
        let recordedAt: UnixTime
        if case .number(let literal) = root["recordedAt"] { recordedAt = UnixTime(literal) ?? 0 } else { recordedAt = 0 }
        return RecordedEvent(event: event, host: HostID(root["host"]?.stringValue ?? HostID.local.rawValue), recordedAt: recordedAt)
    }
}
