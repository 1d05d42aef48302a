import AsyncTesting
import Foundation
import QRCode

/// Reads QR codes with Debian's `zbarimg` (zbar-tools, installed by scripts/setup.sh): an independent
/// decoder, so a test proves a drawn code scans, not just that our renderer agrees with itself.
public enum ZBarReader {
    public static let executable = "/usr/bin/zbarimg"

    /// What `zbarimg` reads in `matrix` drawn as a PNG; throws when it finds no code or cannot run.
    public static func decode(_ matrix: QRMatrix) async throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lfg-qr-\(UUID().uuidString).png")
        try Data(matrix.png(scale: 4)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await bounded("zbarimg", within: .seconds(60)) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--quiet", "--raw", file.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw ZBarFailure(status: process.terminationStatus)
            }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        }
    }

    /// The QR code drawn in `printed` (a command's output: the half-block lines before `marker`), read back.
    public static func terminalCode(in printed: String, before marker: String, colors: Bool) throws -> QRMatrix {
        let lines = printed.components(separatedBy: "\n")
        guard let end = lines.firstIndex(where: { $0.hasPrefix(marker) }) else { throw ZBarFailure(status: -1) }
        var start = end
        while start > 0, !lines[start - 1].isEmpty, lines[start - 1].unicodeScalars.allSatisfy(isDrawing) { start -= 1 }
        return try QRMatrix(readingTerminalText: lines[start..<end].joined(separator: "\n"), colors: colors)
    }

    static func isDrawing(_ scalar: Unicode.Scalar) -> Bool {
        [" ", "\u{2588}", "\u{2580}", "\u{2584}", "\u{1B}", "[", ";", "m"].contains(scalar) || ("0"..."9").contains(scalar)
    }
}

/// `zbarimg` found no code (status 4) or failed.
public struct ZBarFailure: Error, CustomStringConvertible {
    public var status: Int32
    public var description: String { "zbarimg read no QR code (exit status \(status)); is zbar-tools installed (scripts/setup.sh)?" }
}
