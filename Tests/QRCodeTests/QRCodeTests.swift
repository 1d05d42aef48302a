import Foundation
import QRCode
import QRCodeTesting
import Testing

@Suite("QR codes: libqrencode's matrix, drawn for a terminal, as PNG and as SVG")
struct QRCodeTests {
    static let link = "lfg://pair?server=http://192.168.1.20:8766&code=0123456789abcdef0123456789abcdef"

    @Test("the terminal drawing, read back and decoded by zbarimg, is the link (with and without colours)")
    func terminalCodeDecodesToTheLink() async throws {
        let matrix = try QRMatrix(encoding: Self.link)
        for colors in [true, false] {
            let text = matrix.terminalText(colors: colors)
            let shown = try QRMatrix(readingTerminalText: text, colors: colors)
            #expect(shown == matrix)
            #expect(try await ZBarReader.decode(shown) == Self.link)
        }
    }

    @Test("the terminal drawing is half blocks: two module rows a line, a 2-module quiet zone each side")
    func terminalShape() throws {
        let matrix = try QRMatrix(encoding: Self.link)
        let lines = matrix.terminalText(colors: false).split(separator: "\n")
        let side = matrix.size + 2 * QRMatrix.terminalQuietZone
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        #expect(lines[0].allSatisfy { $0 == "\u{2588}" })  // the quiet zone: light, drawn as ink on a dark terminal
    }

    @Test("the PNG decodes to the link and the SVG draws one square per dark module")
    func images() async throws {
        let matrix = try QRMatrix(encoding: Self.link)
        #expect(try await ZBarReader.decode(matrix) == Self.link)
        let svg = matrix.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == matrix.modules.filter { $0 }.count)
    }

    @Test("an empty or oversized text is refused with a reason")
    func refusals() {
        #expect(throws: QRCodeError.self) { try QRMatrix(encoding: "") }
        #expect(throws: QRCodeError.self) { try QRMatrix(encoding: String(repeating: "x", count: 4000)) }
    }
}
