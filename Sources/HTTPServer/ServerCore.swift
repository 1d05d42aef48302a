import HTTPTypes
import Synchronization

/// What every event loop of one server shares: the configuration, the handler and the connection caps.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    /// The caps and counts across all loops (touched once when a connection opens and once when it closes).
    let ledger: Mutex<ConnectionLedger>
    let parserLimits: RequestParser.Limits
    /// Set when the server is told to stop, before any loop begins its shutdown: every loop answers the
    /// requests it reads from then on 503, so none is served normally on a loop that has not stopped yet
    /// (the loops stop one after the other, and a client may react to one stopping, e.g. to its event
    /// stream ending, with a request to another).
    let isStopping = Atomic<Bool>(false)

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        ledger = Mutex(ConnectionLedger(limits: .init(
            total: Int(configuration.connectionLimit), perClient: Int(configuration.perClientConnectionLimit),
            lingeringRefusals: Int(HTTPServer.refusalHeadroom / 2))))
        parserLimits = RequestParser.Limits(maxBodyBytes: configuration.maxBodyBytes)
    }
}
