import ControlPlane
import Foundation
import HookAdapter

/// What `lfg hook` spooled while the server was down, taken straight into the service when
/// `lfg serve` starts (before it listens, so the reports keep their order ahead of new ones).
enum HookSpoolIntake {
    /// A long spool is only read from disk and written to the store; this bounds a pathological one.
    static let timeBudget = 5.0

    /// Delivers `$LFG_HOME/hook-spool.jsonl` into `service`, oldest first.
    static func drain(home: String, into service: ControlPlaneService) async -> SpoolDrainer.Result {
        await SpoolDrainer.drain(
            HookFiles(home: URL(fileURLWithPath: home)), using: ServiceReportDelivery(service: service),
            deadline: HookDeadline(seconds: timeBudget))
    }
}

extension HookSpoolIntake {
    /// One line about an intake that left something behind or dropped something, nil when it took
    /// everything (or there was nothing): a report left pending is never silent.
    static func summary(_ result: SpoolDrainer.Result) -> String? {
        guard result.remaining > 0 || result.rejected > 0 else { return nil }
        let reason = result.stoppedBecause.map { " (\($0))" } ?? ""
        return "took \(result.delivered) hook report(s) recorded while it was down, refused \(result.rejected) for good, "
            + "\(result.remaining) still pending\(reason); `lfg hooks drain` delivers them"
    }
}

/// A ``ReportDelivery`` that puts reports into the service directly instead of over HTTP.
struct ServiceReportDelivery: ReportDelivery {
    let service: ControlPlaneService

    func deliver(_ report: SpooledReport, timeout: Double) async -> DeliveryOutcome {
        do {
            try await service.putSession(report.sid, report.report)
            return .delivered
        } catch {
            switch error {
            case .invalid, .notFound: return .rejected(status: 400)
            case .store: return .failed(reason: "\(error)")
            }
        }
    }
}
