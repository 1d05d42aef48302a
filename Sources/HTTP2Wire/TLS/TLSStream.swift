internal import COpenSSL

/// TLS over a nonblocking ``TCPSocket``; call ``handshake()`` until it returns `.bytes(0)`-free success.
public final class TLSStream: ByteStream {
    let socket: TCPSocket
    let ssl: OpaquePointer
    public private(set) var isHandshakeDone = false

    /// Wraps `socket`; `serverName` sets SNI and the name the certificate must match (clients only).
    public init(socket: TCPSocket, context: TLSContext, serverName: String?) throws(WireError) {
        guard let ssl = SSL_new(context.context) else { throw TLSContext.failure("SSL_new") }
        self.socket = socket
        self.ssl = ssl
        _ = SSL_set_fd(ssl, socket.descriptor)
        if context.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let serverName {
                _ = serverName.withCString { name in
                    SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: name))
                }
                if serverName.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" }) {
                    let parameters = SSL_get0_param(ssl)
                    _ = X509_VERIFY_PARAM_set1_ip_asc(parameters, serverName)
                } else {
                    _ = SSL_set1_host(ssl, serverName)
                }
            }
        }
    }

    deinit {
        SSL_free(ssl)
    }

    public var descriptor: Int32 { socket.descriptor }

    public func close() { socket.close() }

    /// Advances the handshake: `.bytes(1)` when done, `.wouldBlock` to poll, `.failed` with the reason.
    public func handshake() -> StreamResult {
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isHandshakeDone = true
            return .bytes(1)
        }
        return classify(result, call: "TLS handshake")
    }

    /// Whether the peer agreed to HTTP/2 through ALPN.
    public var negotiatedH2: Bool {
        var protocolName: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &protocolName, &length)
        guard let protocolName, length == 2 else { return false }
        return protocolName[0] == UInt8(ascii: "h") && protocolName[1] == UInt8(ascii: "2")
    }

    /// After ``close()`` nothing reaches the descriptor (see ``TCPSocket/read(into:)``).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamResult {
        guard !socket.isClosed else { return .closed }
        let count = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        return count > 0 ? .bytes(Int(count)) : classify(count, call: "TLS read")
    }

    public func write(_ bytes: UnsafeRawBufferPointer) -> StreamResult {
        guard !socket.isClosed else { return .closed }
        let count = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, Int(Int32.max))))
        return count > 0 ? .bytes(Int(count)) : classify(count, call: "TLS write")
    }

    private func classify(_ result: Int32, call: String) -> StreamResult {
        let code = SSL_get_error(ssl, result)
        switch code {
        case SSL_ERROR_WANT_READ: return .wouldBlock(wantsWrite: false)
        case SSL_ERROR_WANT_WRITE: return .wouldBlock(wantsWrite: true)
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL where ERR_peek_error() == 0: return .closed
        default:
            let verify = SSL_get_verify_result(ssl)
            let detail = verify == X509_V_OK ? TLSContext.lastError()
                : "certificate: " + String(cString: X509_verify_cert_error_string(verify))
            ERR_clear_error()
            return .failed("\(call): \(detail)")
        }
    }
}
