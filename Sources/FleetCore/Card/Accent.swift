/// The card's accent: needs-input dominates.
public enum Accent: String, Hashable, Sendable, Codable {
    case amber = "#FF9F0A"
    case green = "#30D158"

    /// The hex colour, e.g. `#FF9F0A`.
    public var hex: String { rawValue }
}

extension ContentState {
    /// Amber when anything waits on a person, else green.
    public var accent: Accent { needsInput > 0 ? .amber : .green }

    /// The `relevance-score` both writers stamp: 100 when anything waits on a person, else 90.
    ///
    /// It ranks only this app's own activities; which app owns a shared Dynamic Island is iOS's choice.
    public var relevanceScore: Int { needsInput > 0 ? 100 : 90 }
}
