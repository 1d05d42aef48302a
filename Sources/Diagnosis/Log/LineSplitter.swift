/// Cuts a byte stream, fed in chunks of any size, into lines, holding at most one line in memory.
///
/// A line longer than `maxLineBytes` is not kept: it is reported as overlong and skipped up to its
/// newline, so one runaway line cannot exhaust memory. A last line without a newline is delivered
/// by `finish` (it is usually a truncated write).
public struct LineSplitter {
    /// What the splitter found.
    public enum Piece {
        /// A complete line without its `\n`. The buffer is valid only during the callback.
        case line(UnsafeRawBufferPointer)
        /// The stream ended without a newline after these bytes.
        case unterminated(UnsafeRawBufferPointer)
        /// A line over the limit was skipped.
        case overlong
    }

    public let maxLineBytes: Int
    private var carry: [UInt8] = []
    private var isSkippingOverlong = false

    public init(maxLineBytes: Int = 1 << 20) { self.maxLineBytes = maxLineBytes }

    /// Feeds the next chunk; calls `handle` for every piece it completes.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (Piece) -> Void) {
        var start = 0
        while start < chunk.count {
            guard let newline = Self.indexOfNewline(in: chunk, from: start) else {
                keep(UnsafeRawBufferPointer(rebasing: chunk[start...]), handle)
                return
            }
            let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<newline])
            if isSkippingOverlong {
                isSkippingOverlong = false
            } else if carry.isEmpty {
                handle(.line(piece))
            } else if carry.count + piece.count > maxLineBytes {
                carry.removeAll(keepingCapacity: true)
                handle(.overlong)
            } else {
                carry.append(contentsOf: piece)
                carry.withUnsafeBytes { handle(.line($0)) }
                carry.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
    }

    /// Ends the stream: delivers a last line that had no newline.
    public mutating func finish(_ handle: (Piece) -> Void) {
        defer {
            carry.removeAll()
            isSkippingOverlong = false
        }
        guard !isSkippingOverlong, !carry.isEmpty else { return }
        carry.withUnsafeBytes { handle(.unterminated($0)) }
    }

    private mutating func keep(_ tail: UnsafeRawBufferPointer, _ handle: (Piece) -> Void) {
        guard !isSkippingOverlong else { return }
        if carry.count + tail.count > maxLineBytes {
            carry.removeAll(keepingCapacity: true)
            isSkippingOverlong = true
            handle(.overlong)
        } else {
            carry.append(contentsOf: tail)
        }
    }

    private static func indexOfNewline(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = buffer.baseAddress, start < buffer.count else { return nil }
        // memchr-speed scan without importing libc: the optimizer vectorizes this loop well enough.
        var index = start
        while index < buffer.count {
            if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A { return index }
            index += 1
        }
        return nil
    }
}
