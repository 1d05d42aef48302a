/// The order of one session's reports: `lfg hook` numbers them 1, 2, 3, … per session in event order
/// and sends the number as the `LFG-Report-Seq` header of `PUT /api/sessions/{sid}` (an extension; a
/// report without it is always taken).
///
/// A request that timed out may still reach the server after a later one: the server then keeps the
/// later report. 1 is always taken, because a hook that lost its records (pruned after 30 days) starts
/// counting again.
public enum ReportSequence {
    /// The header that carries the number.
    public static let header = "LFG-Report-Seq"

    /// Whether a report numbered `seq` is older than the last one taken for its session (`last`).
    public static func isStale(_ seq: Int, after last: Int?) -> Bool {
        guard let last, seq != 1 else { return false }
        return seq <= last
    }
}
