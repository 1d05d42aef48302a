#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The one bind-address rule: dotted-quad IPv4 text exactly as the listener parses it (`inet_pton`, which
/// the server binds with), checked without touching the network. `lfg serve --bind` checks
/// with it too, so an address the command accepts is one the server can bind.
public enum IPv4Address {
    public static func isValid(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }
}
