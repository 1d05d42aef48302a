import APNsMock
import Synchronization

/// The pushes the APNs stand-in accepted, waiting for the demo to hand them to the simulated phone.
///
/// The stand-in records on its own thread; the demo drains the inbox on its own task. A lock keeps the
/// two apart, and nothing is ever dropped: the phone sees every push in the order the stand-in did.
public final class PushInbox: Sendable {
    private let records = Mutex<[MockRecord]>([])

    public init() {}

    /// Adds one record (the stand-in's `onRecord` callback).
    public func append(_ record: MockRecord) { records.withLock { $0.append(record) } }

    /// Takes every record added so far, oldest first.
    public func takeAll() -> [MockRecord] {
        records.withLock { records in
            defer { records = [] }
            return records
        }
    }
}
