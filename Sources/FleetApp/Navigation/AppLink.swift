import FleetCore
import Foundation

/// Where a tap outside the app leads inside it: the one deep-link format, written by the card's
/// `widgetURL` and a question alert's tap, read by the app's URL handler.
///
/// Format: `lfg://session/<sid>`, the sid percent-encoded as one path segment; `lfg://` alone is the app.
public enum AppLink: Hashable, Sendable {
    /// The app as it was.
    case home
    /// One session's screen.
    case session(SessionID)

    /// The URL scheme the app declares (`CFBundleURLTypes`).
    public static let scheme = "lfg"

    /// The link as a URL.
    public var url: URL {
        switch self {
        case .home: URL(string: Self.scheme + "://")!
        case .session(let sid): URL(string: Self.scheme + "://session/" + ControlPlaneCall.pathSegment(sid.rawValue))!
        }
    }

    /// Where `url` leads, or nil when it is not one of the app's links (another scheme, an unknown place,
    /// an empty sid).
    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.scheme?.lowercased() == Self.scheme
        else { return nil }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
        switch (components.host, segments.count) {
        case (nil, 0), ("", 0):
            self = .home
        case ("session", 1):
            guard let sid = String(segments[0]).removingPercentEncoding, !sid.isEmpty else { return nil }
            self = .session(SessionID(sid))
        default:
            return nil
        }
    }

    /// The link a surface of the card opens: its session, or the app.
    public init(opening layout: SurfaceLayout) {
        self = layout.opensSession.map { .session($0) } ?? .home
    }
}
