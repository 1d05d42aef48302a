/// The elapsed label a row shows ("1m", "2m", "1h 5m"), counted locally from `since`.
///
/// Labels are never pushed: the widget recomputes them every 60 s, which is also why a frozen card
/// still looks alive.
public enum ElapsedLabel {
    /// The label for a row that entered its state at `since`, seen at `now` (both Unix seconds).
    ///
    /// Under a minute reads "<1m"; minutes "Nm"; hours "Nh Mm" ("Nh" on the hour); days "Nd Hh".
    /// A `since` in the future (clock skew between writers) reads as "<1m", never negative.
    public static func text(since: UnixTime, now: UnixTime) -> String {
        let elapsed = max(0, now - since)
        let minutes = Int(elapsed / 60)
        if minutes < 1 { return "<1m" }
        if minutes < 60 { return "\(minutes)m" }
        let hours = minutes / 60
        if hours < 24 {
            let rest = minutes % 60
            return rest == 0 ? "\(hours)h" : "\(hours)h \(rest)m"
        }
        let days = hours / 24
        let restHours = hours % 24
        return restHours == 0 ? "\(days)d" : "\(days)d \(restHours)h"
    }

    /// Seconds until the label next changes, so a view can schedule exactly one refresh.
    public static func secondsUntilNextChange(since: UnixTime, now: UnixTime) -> Double {
        let elapsed = max(0, now - since)
        return 60 - elapsed.truncatingRemainder(dividingBy: 60)
    }
}
