/// Drawing a QR code in a terminal with Unicode half blocks: one text line holds two module rows.
extension QRMatrix {
    /// Light modules a terminal code keeps around it; 2 reads reliably on a screen and keeps it short.
    public static let terminalQuietZone = 2

    /// The code as lines of half blocks, quiet zone included, each line ending in a newline.
    ///
    /// - Parameter colors: true (the default): ANSI black on white, so the code is right on any terminal
    ///   theme. false (`NO_COLOR`): no escapes, the blocks draw the LIGHT modules, which is right on the
    ///   usual dark-background terminal.
    public func terminalText(colors: Bool = true) -> String {
        let margin = Self.terminalQuietZone
        let span = -margin..<(size + margin)
        var text = ""
        for top in stride(from: -margin, to: size + margin, by: 2) {
            if colors { text += "\u{1B}[30;47m" }
            for column in span {
                // Ink marks dark modules on the white ANSI background, light ones without colours.
                let hasLower = top + 1 < size + margin
                let upper = self[top, column] == colors
                let lower = hasLower && self[top + 1, column] == colors
                text += Self.halfBlock(upper: upper, lower: lower)
            }
            if colors { text += "\u{1B}[0m" }
            text += "\n"
        }
        return text
    }

    /// The character whose ink covers the upper half, the lower half, both or neither.
    static func halfBlock(upper: Bool, lower: Bool) -> String {
        switch (upper, lower) {
        case (true, true): "\u{2588}"  // █
        case (true, false): "\u{2580}"  // ▀
        case (false, true): "\u{2584}"  // ▄
        case (false, false): " "
        }
    }
}

extension QRMatrix {
    /// Reads back a code drawn by ``terminalText(colors:)`` (ANSI escapes skipped, quiet zone removed):
    /// how tests prove that what a terminal shows is the code, by handing it to a real decoder.
    public init(readingTerminalText text: String, colors: Bool = true) throws(QRCodeError) {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var upper: [Bool] = []
            var lower: [Bool] = []
            var isEscape = false
            for character in line {
                if isEscape {
                    if character.isLetter { isEscape = false }
                    continue
                }
                if character == "\u{1B}" {
                    isEscape = true
                    continue
                }
                let ink: (Bool, Bool)
                switch character {
                case "\u{2588}": ink = (true, true)
                case "\u{2580}": ink = (true, false)
                case "\u{2584}": ink = (false, true)
                case " ": ink = (false, false)
                default: throw QRCodeError("'\(character)' is not a half block")
                }
                // With colours ink is dark; without, ink is light.
                upper.append(ink.0 == colors)
                lower.append(ink.1 == colors)
            }
            rows += [upper, lower]
        }
        let margin = Self.terminalQuietZone
        let size = (rows.first?.count ?? 0) - 2 * margin
        guard size > 0, rows.count >= size + 2 * margin, rows.allSatisfy({ $0.count == size + 2 * margin }) else {
            throw QRCodeError("the text is not a square code with a \(margin)-module quiet zone")
        }
        let modules = rows[margin..<(margin + size)].flatMap { $0[margin..<(margin + size)] }
        self.init(size: size, modules: modules)
    }
}
