extension Row {
    /// The line a no-news row shows under its title, counted locally from the last report like the
    /// elapsed label ("No news for 12m"); nil for a row whose session is reporting.
    public func noNewsLine(now: UnixTime) -> String? {
        guard let noNewsSince else { return nil }
        return "No news for \(ElapsedLabel.text(since: noNewsSince, now: now))"
    }
}

extension SurfaceLayout {
    /// The rows this surface shows that are no news (guard `no-news`): surfaces without rows (compact,
    /// minimal) show none, and their counts still include them, so a quiet session never reads as zero.
    public var noNewsRows: [Row] { rows.filter(\.isNoNews) }

    /// The line under `row`'s title on this surface at `now`: "No news for 12m" for a no-news row, else nil.
    public func line(for row: Row, now: UnixTime) -> String? { row.noNewsLine(now: now) }
}
