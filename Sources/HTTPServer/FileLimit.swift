import Foundation

/// The process's open-file limit: every connection is a descriptor, so the soft limit is raised (never
/// past the hard one) to fit the connection caps; without this 1,024 sockets would exhaust a default shell.
enum FileLimit {
    static func raise(toAtLeast wanted: UInt) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        _ = setrlimit(resource, &limit)
    }
}
