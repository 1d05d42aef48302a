#if canImport(SwiftUI)
import FleetCore
import SwiftUI

/// A row's elapsed time ("2m"), counted up locally every 60 s from `since`: never pushed.
///
/// This is also why a frozen card looks alive: its labels keep counting with nobody updating it.
public struct ElapsedTimeText: View {
    let since: UnixTime

    public init(since: UnixTime) { self.since = since }

    public var body: some View {
        TimelineView(.periodic(from: .now, by: 60)) { context in
            Text(ElapsedLabel.text(since: since, now: context.date.timeIntervalSince1970))
                .monospacedDigit()
        }
    }
}

/// A no-news row's line ("No news for 12m", ``Row/noNewsLine(now:)``), counted up locally every 60 s from
/// the last report like ``ElapsedTimeText``: the card is not pushed again just to say time passed.
public struct NoNewsText: View {
    let row: Row

    public init(_ row: Row) { self.row = row }

    public var body: some View {
        TimelineView(.periodic(from: .now, by: 60)) { context in
            Text(row.noNewsLine(now: context.date.timeIntervalSince1970) ?? "").monospacedDigit()
        }
    }
}
#endif
