/// A QR code as an image for the dashboard: SVG (drawn by the browser at any size) and PNG.
extension QRMatrix {
    /// Light modules an image keeps around the code: the standard's 4.
    public static let imageQuietZone = 4

    /// An SVG image, `moduleSize` pixels per module, dark modules as one path on a white square.
    public func svg(moduleSize: Int = 6) -> String {
        let side = size + 2 * Self.imageQuietZone
        var path = ""
        for row in 0..<size {
            for column in 0..<size where self[row, column] {
                path += "M\(column + Self.imageQuietZone) \(row + Self.imageQuietZone)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side * moduleSize)" \
            height="\(side * moduleSize)" shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" \
            fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    /// A PNG image (1-bit greyscale), `scale` pixels per module.
    public func png(scale: Int = 8) -> [UInt8] {
        let margin = Self.imageQuietZone
        let pixels = (size + 2 * margin) * scale
        let rowBytes = (pixels + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * pixels)
        for y in 0..<pixels {
            raw.append(0)  // filter type: none
            var row = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<pixels where !self[y / scale - margin, x / scale - margin] {
                row[x / 8] |= 0x80 >> UInt8(x % 8)  // 1 = white in 1-bit greyscale
            }
            raw += row
        }
        return PNGWriter.greyscale1Bit(width: pixels, height: pixels, scanlines: raw)
    }
}
