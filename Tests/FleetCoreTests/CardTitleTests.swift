import FleetCore
import Foundation
import Testing

@Suite struct CardTitleTests {
    static let samples = ["plain", "quote \" and \\ back", "slash / here", "tab\tnew\nline", "\u{1}\u{1f}", "é𝄞👩‍👩‍👧‍👦", "\u{2028}"]

    @Test("The byte count is never short of what a JSON encoder writes", arguments: samples)
    func countIsNeverShort(text: String) throws {
        for formatting: JSONEncoder.OutputFormatting in [[], [.withoutEscapingSlashes]] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            let written = try encoder.encode(text).count - 2  // without the quotes
            #expect(CardTitle.encodedBytes(text) >= written)
        }
    }

    @Test("A title that fits is kept whole; a longer one is cut at a character and ends in an ellipsis")
    func cut() {
        #expect(CardTitle.fitted("Build the thing") == "Build the thing")
        let long = String(repeating: "ab\"", count: 500)
        let fitted = CardTitle.fitted(long)
        #expect(fitted.hasSuffix("…"))
        #expect(long.hasPrefix(fitted.dropLast()))
        #expect(CardTitle.encodedBytes(fitted) <= CardTitle.maximumEncodedBytes)
        #expect(CardTitle.encodedBytes(fitted) > CardTitle.maximumEncodedBytes - 4)
        #expect(CardTitle.fitted(long) == fitted)
    }
}
