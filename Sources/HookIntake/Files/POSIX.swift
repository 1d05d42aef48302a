#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few system calls this module makes whose spelling differs between Linux and Darwin, and the
/// `errno` of a failed call as a value (this module never imports Foundation, so no `POSIXError`).
enum POSIX {
    /// A new unix datagram socket (close-on-exec), or -1 with `errno` set.
    static func datagramSocket() -> Int32 {
        #if canImport(Glibc)
            return socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let descriptor = socket(AF_UNIX, SOCK_DGRAM, 0)
            if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return descriptor
        #endif
    }

    /// The text of an `errno` value, e.g. "No such file or directory".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

/// A failed system call: which operation, on what, and the `errno` it set.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. "bind /home/me/.lfg/host.sock".
    public var operation: String
    /// The `errno` value.
    public var code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(POSIX.describe(code))" }
}
