/// One line of `$LFG_HOME/liveactivity.log`: `{"ts", "event", "deviceId", ...fields}` (contract section 7).
///
/// Successes are logged too: a dead token answers 200, so the failure mode produces no errors, and
/// only a record of what was sent lets anyone tell a stale card's cause after the fact.
///
/// Build lines with the typed constructors (`DecisionLogLine.decide(...)`, `.send(...)`, ...): each
/// one writes exactly its event's schema (`DecisionEvent.fields`), which every reader relies on.
public struct DecisionLogLine: Hashable, Sendable {
    public var ts: UnixTime
    public var event: DecisionEvent
    public var deviceId: DeviceID
    public internal(set) var fields: [LogField: LogValue]

    /// A line with `fields` as given; debug builds check them against the event's schema, so a
    /// constructor that drifts from `DecisionEvent.fields` fails every test that writes it.
    public init(ts: UnixTime, event: DecisionEvent, deviceId: DeviceID, fields: [LogField: LogValue] = [:]) {
        self.ts = ts
        self.event = event
        self.deviceId = deviceId
        self.fields = fields
        assert(schemaViolations.isEmpty, "decision-log line breaks its schema: \(schemaViolations)")
    }

    public subscript(field: LogField) -> LogValue? { fields[field] }

    public func string(_ field: LogField) -> String? {
        if case .string(let value) = fields[field] { value } else { nil }
    }

    public func integer(_ field: LogField) -> Int? {
        if case .integer(let value) = fields[field] { value } else { nil }
    }

    /// A number field (an integer reads as a number too).
    public func number(_ field: LogField) -> Double? {
        switch fields[field] {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    public func strings(_ field: LogField) -> [String]? {
        if case .strings(let value) = fields[field] { value } else { nil }
    }

    public func bool(_ field: LogField) -> Bool? {
        if case .bool(let value) = fields[field] { value } else { nil }
    }

    /// The `action` of a decision or push line.
    public var action: PushAction? { string(.action).flatMap(PushAction.init(rawValue:)) }

    /// What in this line differs from its event's schema: missing required fields, fields the event
    /// does not carry, and values of the wrong JSON type. Empty for a well-formed line.
    public var schemaViolations: [String] {
        let specs = event.fields
        var problems: [String] = []
        for spec in specs where spec.isRequired && fields[spec.field] == nil {
            problems.append("\(event.rawValue): missing \(spec.field.rawValue)")
        }
        for (field, value) in fields.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if !specs.contains(where: { $0.field == field }) {
                problems.append("\(event.rawValue): unexpected \(field.rawValue)")
            } else if !value.fits(field.kind) {
                problems.append("\(event.rawValue): \(field.rawValue) is \(value.kind.rawValue), not \(field.kind.rawValue)")
            }
        }
        return problems
    }
}
