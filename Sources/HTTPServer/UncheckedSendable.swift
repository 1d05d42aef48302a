/// Carries a C pointer across isolation domains.
///
/// Invariant: the wrapped libmicrohttpd connection pointer stays valid until the request-completed
/// callback, and every use from a Swift task happens before that (while the connection is suspended
/// or through calls libmicrohttpd documents as thread-safe, such as `MHD_resume_connection`).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
