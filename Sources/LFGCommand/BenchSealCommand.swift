import APNs
import ControlPlane
import FleetCore
import Foundation
import Sealing

/// `lfg bench seal`: what sealing one alert to a device's key costs (privacy mode, issue 17), and how big
/// the sealed alert is, for a typical and a long question.
public struct BenchSealCommand: Command {
    public static let name = "bench seal"
    public static let summary = "measure sealing cost per alert (µs) and sealed payload size"
    public static let usage = """
        Usage: lfg bench seal [--count N]

        Seals an 80-character and a 1,000-character question N times each (default 2000) with
        AlertContent.make (shortening + HPKE P-256/HKDF-SHA256/AES-256-GCM to a fixed test key) and
        prints the median, p90 and minimum µs per alert; then the same for the reference opener
        (what the phone's extension does, here on OpenSSL), the sealed box size, its base64 size and
        the size of a whole example push carrying it. Prints human-readable lines, then one JSON object.
        """

    let count: Int

    public init(parsing arguments: inout ArgumentList) throws(UsageError) {
        count = try arguments.integer("--count", in: 10...1_000_000) ?? 2000
    }

    public func run(_ context: CommandContext) async throws -> Int32 {
        let phone = try SealPrivateKey(derivedFrom: Array("lfg bench seal".utf8))
        let opener = ReferenceOpener(key: phone)
        let typical = String(String(repeating: "Run the migration on staging now? It adds two columns. ", count: 2).prefix(80))
        let long = String(String(repeating: "Should I rewrite the retry loop with exponential backoff and jitter? ", count: 16).prefix(1000))
        var figures: [String: Any] = ["count": count]
        for (label, text) in [("typical", typical), ("long", long)] {
            var sealed: SealedAlert?
            let sealTimes = try Self.time(count) {
                let content = AlertContent.make(text: text, privacy: true, sealKey: phone.publicKey)
                if let failure = content.sealingFailure { throw failure }
                sealed = content.sealed
            }
            guard let sealed else { return 1 }
            let openTimes = try Self.time(count) { _ = try opener.open(sealed) }
            // The question alert the server sends a sealed device: the real payload, words fitted and sealed.
            let words = AlertWords(title: "api-server: migrations", body: text, options: ["Yes", "No"])
            let disclosure = HPKEAlertSealing().disclosure(
                of: words, isPrivate: true, sealKey: DeviceSealKey(base64: phone.publicKey.base64, keyID: phone.publicKey.keyID))
            let question = Question(
                id: "q-0123456789abcdef", sid: "s-0123456789abcdef", kind: .choice, text: text, options: words.options,
                createdAt: 0, expiresAt: nil)
            let pushBytes = try PushRequest.questionAlert(
                question, title: words.title, disclosure: disclosure.disclosure,
                token: try DeviceToken(hex: String(repeating: "a", count: 64)), environment: .sandbox,
                bundleID: BundleID("com.example.lfg")
            ).payload.bytes.count
            let seal = Self.summary(sealTimes)
            let open = Self.summary(openTimes)
            context.write(String(
                format: "%@ (%d chars): seal median %.1f µs (p90 %.1f, min %.1f); open median %.1f µs;"
                    + " box %d bytes, base64 %d, sealed question alert %d bytes of 4096\n",
                label, text.count, seal.median, seal.p90, seal.min, open.median, sealed.box.count,
                sealed.base64.utf8.count, pushBytes))
            figures[label] = [
                "chars": text.count, "sealMedianMicros": seal.median, "sealP90Micros": seal.p90, "sealMinMicros": seal.min,
                "openMedianMicros": open.median, "boxBytes": sealed.box.count, "base64Bytes": sealed.base64.utf8.count,
                "pushBytes": pushBytes,
            ]
        }
        let json = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
        context.write(String(decoding: json, as: UTF8.self) + "\n")
        return 0
    }

    /// Each of `count` runs of `body`, in µs.
    private static func time(_ count: Int, _ body: () throws -> Void) throws -> [Double] {
        let clock = ContinuousClock()
        var micros: [Double] = []
        micros.reserveCapacity(count)
        for _ in 0..<count {
            let elapsed = try clock.measure(body)
            micros.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        return micros
    }

    private static func summary(_ micros: [Double]) -> (median: Double, p90: Double, min: Double) {
        let sorted = micros.sorted()
        return (sorted[sorted.count / 2], sorted[sorted.count * 9 / 10], sorted[0])
    }
}
