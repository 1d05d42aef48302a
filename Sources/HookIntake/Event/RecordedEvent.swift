import FleetCore

/// An event as the hook records it in the inbox (one ``InboxEntry`` each): the fields the adapter reads
/// (under the agent's own names, so ``HookEvent/decode(root:)`` reads it back), the host that saw it,
/// when, and the agent process that ran the hook.
///
/// Only those fields are kept: a `PostToolUse` can carry a whole file as `tool_response`, and the
/// record is written on every tool call. This is the one definition of the entry's contents: `lfg-hook`,
/// `lfg hook` and every deliverer (`lfg host`, `lfg serve`, `lfg hooks drain`) read and write it here.
///
/// `{"host": "mbp", "recordedAt": 1764620000.123, "agentPid": 4242, "event": {"hook_event_name": …}}`
public struct RecordedEvent: Hashable, Sendable {
    public var event: HookEvent
    /// The host the event's reports name (the recording machine's, not the deliverer's).
    public var host: HostID
    /// Unix seconds when it was recorded (the hook received it).
    public var recordedAt: UnixTime
    /// The agent process that ran the hook (``AgentProcess/agent(ofParent:)``), when found.
    public var agentPID: Int32?

    public init(event: HookEvent, host: HostID, recordedAt: UnixTime, agentPID: Int32? = nil) {
        self.event = event
        self.host = host
        self.recordedAt = recordedAt
        self.agentPID = agentPID
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
        var record: JSONObject = [
            "host": .string(host.rawValue), "recordedAt": .number(String(recordedAt)), "event": .object(fields),
        ]
        if let agentPID { record["agentPid"] = .number(String(agentPID)) }
        return JSONValue.object(record).compactPrinted()
    }

    /// Reads a record back; nil when it is not one (a damaged file is skipped, never retried).
    public static func decode(_ text: String) -> RecordedEvent? {
        guard let root = try? JSONParser.parse(text), let payload = root["event"],
            let event = try? HookEvent.decode(root: payload)
        else { return nil }
        let recordedAt: UnixTime
        if case .number(let literal) = root["recordedAt"] { recordedAt = UnixTime(literal) ?? 0 } else { recordedAt = 0 }
        var agentPID: Int32?
        if case .number(let literal) = root["agentPid"] { agentPID = Int32(literal) }
        return RecordedEvent(
            event: event, host: HostID(root["host"]?.stringValue ?? HostID.local.rawValue), recordedAt: recordedAt,
            agentPID: agentPID)
    }
}
