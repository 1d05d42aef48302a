import HTTPTypes
import Synchronization

/// What every event loop of one server shares: the configuration, the handler and the connection caps.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    /// The caps and counts across all loops (touched once when a connection opens and once when it closes).
    let ledger: Mutex<ConnectionLedger>
    let parserLimits: RequestParser.Limits

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        ledger = Mutex(ConnectionLedger(limits: .init(
            total: Int(configuration.connectionLimit), perClient: Int(configuration.perClientConnectionLimit))))
        parserLimits = RequestParser.Limits(maxBodyBytes: configuration.maxBodyBytes)
    }
}
