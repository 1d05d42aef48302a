/// Formats Unix seconds as UTC text (`2026-11-29 13:04:05Z`) without a calendar or locale.
enum UTCTime {
    static func format(_ ts: Double) -> String {
        let seconds = Int((ts).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return "\(year)-\(pad(month))-\(pad(day)) \(pad(secondOfDay / 3_600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60))Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Short durations for people: `42 s`, `7 min 5 s`, `3 h 12 min`.
enum DurationText {
    static func format(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if seconds < 10 { return "\(Double(Int(seconds * 10)) / 10) s" }
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3_600) h \(whole / 60 % 60) min"
    }
}
