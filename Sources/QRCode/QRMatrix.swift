import CQREncode
import Glibc

/// A QR code as a square of modules (true = dark), encoded by libqrencode; no quiet zone included.
///
/// The renderers (``terminalText(colors:)``, ``svg(moduleSize:)``, ``png(scale:)``) add the quiet zone
/// (the light border a scanner needs) themselves.
public struct QRMatrix: Hashable, Sendable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `size * size` entries.
    public let modules: [Bool]

    /// How much of the code may be damaged and still read. Medium (15 %) suits a screen.
    public enum Correction: Sendable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// A matrix from its modules (a renderer's output read back, or a test's fixture).
    public init(size: Int, modules: [Bool]) {
        precondition(modules.count == size * size, "a QR matrix needs size * size modules")
        self.size = size
        self.modules = modules
    }

    /// Encodes `text` (as UTF-8 bytes, 8-bit mode) in the smallest version that holds it.
    public init(encoding text: String, correction: Correction = .medium) throws(QRCodeError) {
        guard !text.isEmpty else { throw QRCodeError("nothing to encode: the text is empty") }
        guard let code = QRcode_encodeString8bit(text, 0, correction.level) else {
            let reason = errno == ERANGE ? "the text is too long for a QR code (\(text.utf8.count) bytes)" : "errno \(errno)"
            throw QRCodeError("libqrencode could not encode the text: \(reason)")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // libqrencode: bit 0 of each byte is the module's colour (1 = dark); the other bits describe its role.
        self.init(size: width, modules: data.map { $0 & 1 == 1 })
    }

    /// Whether the module at `row`, `column` is dark; outside the matrix (the quiet zone) is light.
    public subscript(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}

/// Why a QR code could not be made, in words.
public struct QRCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
