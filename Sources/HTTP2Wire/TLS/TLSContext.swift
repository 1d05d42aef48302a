internal import COpenSSL
import OpenSSLSupport

/// An OpenSSL `SSL_CTX` set up for HTTP/2: TLS 1.2+, ALPN `h2`.
///
/// `@unchecked Sendable`: the context is configured once in `init` and only read afterwards
/// (`SSL_new`), which OpenSSL allows from several threads.
public final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    public let isServer: Bool

    /// A client context verifying the server against the system roots plus `caFile`, offering ALPN h2.
    public static func client(caFile: String?) throws(WireError) -> TLSContext {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSContext.failure("SSL_CTX_new") }
        let tls = TLSContext(context: context, isServer: false)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        _ = SSL_CTX_set_default_verify_paths(context)
        if let caFile, SSL_CTX_load_verify_locations(context, caFile, nil) != 1 {
            throw WireError("cannot load the CA file '\(caFile)' (\(lastError())); check LFG_APNS_CA_FILE / --ca-file")
        }
        let alpn: [UInt8] = [2, UInt8(ascii: "h"), UInt8(ascii: "2")]
        guard SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 else { throw failure("set_alpn_protos") }
        tls.configureCommon()
        return tls
    }

    /// A server context with the PEM certificate chain and key, selecting ALPN h2.
    public static func server(certificatePEM: String, keyPEM: String) throws(WireError) -> TLSContext {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw failure("SSL_CTX_new") }
        let tls = TLSContext(context: context, isServer: true)
        let certificate = try readPEM(certificatePEM) { PEM_read_bio_X509($0, nil, nil, nil) }
        defer { X509_free(certificate) }
        let key = try readPEM(keyPEM) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1 else {
            throw failure("use_certificate")
        }
        SSL_CTX_set_alpn_select_cb(context, selectH2, nil)
        tls.configureCommon()
        return tls
    }

    private init(context: OpaquePointer, isServer: Bool) {
        self.context = context
        self.isServer = isServer
    }

    deinit { SSL_CTX_free(context) }

    private func configureCommon() {
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // nghttp2's output buffer may move between retries of a partial write.
        _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
    }

    static func readPEM(_ pem: String, _ read: (OpaquePointer) -> OpaquePointer?) throws(WireError) -> OpaquePointer {
        guard let object = OpenSSLSupport.readPEM(Array(pem.utf8), read) else {
            throw WireError("not valid PEM: \(OpenSSLSupport.lastError())")
        }
        return object
    }

    static func failure(_ call: String) -> WireError { WireError("OpenSSL \(call) failed: \(OpenSSLSupport.lastError())") }

    static func lastError() -> String { OpenSSLSupport.lastError() }
}

/// ALPN server callback: pick `h2` from the client's list, or refuse the handshake.
private func selectH2(
    _ ssl: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<UInt8>?,
    _ offered: UnsafePointer<UInt8>?, _ offeredLength: UInt32, _ argument: UnsafeMutableRawPointer?
) -> Int32 {
    guard let offered, let out, let outLength else { return SSL_TLSEXT_ERR_ALERT_FATAL }
    var index = 0
    while index < Int(offeredLength) {
        let length = Int(offered[index])
        if length == 2, index + 2 < Int(offeredLength), offered[index + 1] == UInt8(ascii: "h"),
            offered[index + 2] == UInt8(ascii: "2")
        {
            out.pointee = offered + index + 1
            outLength.pointee = 2
            return SSL_TLSEXT_ERR_OK
        }
        index += 1 + length
    }
    return SSL_TLSEXT_ERR_ALERT_FATAL
}
