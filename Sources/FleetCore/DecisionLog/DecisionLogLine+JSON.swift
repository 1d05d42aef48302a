/// The decision log's text form: one JSON object per line, keys sorted, written and read here only.
extension DecisionLogLine: Codable {
    /// The line as one JSON object, keys sorted, no trailing newline (the file adds it).
    public var jsonText: String {
        var object = fields
        object[.ts] = .number(ts)
        object[.event] = .string(event.rawValue)
        object[.deviceId] = .string(deviceId.rawValue)
        var text = "{"
        for (index, (field, value)) in object.sorted(by: { $0.key.rawValue < $1.key.rawValue }).enumerated() {
            if index > 0 { text += "," }
            JSONText.appendString(field.rawValue, to: &text)
            text += ":"
            JSONText.append(value, to: &text)
        }
        return text + "}"
    }

    /// The line's UTF-8 bytes (`jsonText`).
    public var jsonBytes: [UInt8] { Array(jsonText.utf8) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encode(ts, forKey: FieldKey(.ts))
        try container.encode(event, forKey: FieldKey(.event))
        try container.encode(deviceId, forKey: FieldKey(.deviceId))
        for (field, value) in fields { try container.encode(value, forKey: FieldKey(field)) }
    }

    /// Reads a line back; a field the schema does not know is an error naming it, so drift shows.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        var fields: [LogField: LogValue] = [:]
        for key in container.allKeys {
            guard let field = LogField(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "unknown decision-log field \(key.stringValue)")
            }
            guard field != .ts, field != .event, field != .deviceId else { continue }
            let value = try container.decode(LogValue.self, forKey: key)
            // JSON has one number type: a whole number in a number field is still a number.
            if field.kind == .number, case .integer(let whole) = value {
                fields[field] = .number(Double(whole))
            } else {
                fields[field] = value
            }
        }
        self.init(
            ts: try container.decode(Double.self, forKey: FieldKey(.ts)),
            event: try container.decode(DecisionEvent.self, forKey: FieldKey(.event)),
            deviceId: try container.decodeIfPresent(DeviceID.self, forKey: FieldKey(.deviceId)) ?? .legacy,
            unchecked: fields)
    }

    /// For reading: a stored line is taken as it is, and `schemaViolations` tells what is off.
    private init(ts: UnixTime, event: DecisionEvent, deviceId: DeviceID, unchecked fields: [LogField: LogValue]) {
        self.ts = ts
        self.event = event
        self.deviceId = deviceId
        self.fields = fields
    }

    private struct FieldKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ field: LogField) { stringValue = field.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Minimal JSON text writing for log lines (FleetCore has no Foundation).
enum JSONText {
    static func append(_ value: LogValue, to text: inout String) {
        switch value {
        case .string(let string): appendString(string, to: &text)
        case .number(let number): appendNumber(number, to: &text)
        case .integer(let integer): text += String(integer)
        case .bool(let flag): text += flag ? "true" : "false"
        case .strings(let strings):
            text += "["
            for (index, string) in strings.enumerated() {
                if index > 0 { text += "," }
                appendString(string, to: &text)
            }
            text += "]"
        }
    }

    /// Shortest round-trip form; whole numbers without a fraction; non-finite as null (JSON has no NaN).
    static func appendNumber(_ number: Double, to text: inout String) {
        guard number.isFinite else {
            text += "null"
            return
        }
        if number == number.rounded(), abs(number) < 1e15 {
            text += String(Int(number))
        } else {
            text += String(number)
        }
    }

    /// The one JSON string escaper of FleetCore (`JSONValue.quoted`).
    static func appendString(_ string: String, to text: inout String) { text += JSONValue.quoted(string) }
}
