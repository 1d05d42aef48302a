import FleetCore

/// The simulator's draws from the one seeded generator (`FleetCore.SplitMix64`): seconds, probabilities,
/// waits and tokens, each in plain arithmetic so one seed gives one trace on every platform.
extension SplitMix64 {
    /// A uniform value in `range` (seconds, probabilities).
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool { uniform(0...1) < probability }

    /// An exponentially distributed wait with the given mean (seconds): memoryless arrivals.
    public mutating func exponential(mean: Double) -> Double {
        let unit = max(uniform(0...1), 1e-12)
        return -mean * unit.naturalLogarithm
    }

    /// A whole number in `range`.
    public mutating func integer(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// `byteCount` random bytes as lowercase hex: a device token's shape.
    public mutating func hexToken(byteCount: Int = 32) -> String {
        var text = ""
        text.reserveCapacity(byteCount * 2)
        let digits = Array("0123456789abcdef")
        for _ in 0..<byteCount {
            let byte = Int(next() & 0xFF)
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0xF])
        }
        return text
    }
}

extension Double {
    /// ln(self) for positive values by a short series: plain arithmetic, so identical on every platform's libm.
    fileprivate var naturalLogarithm: Double {
        var exponent = 0.0
        var mantissa = self
        while mantissa > 2 { mantissa /= 2; exponent += 1 }
        while mantissa < 1 { mantissa *= 2; exponent -= 1 }
        // ln(m) = 2 * atanh((m - 1) / (m + 1)), m in [1, 2)
        let ratio = (mantissa - 1) / (mantissa + 1)
        let square = ratio * ratio
        var term = ratio
        var sum = 0.0
        var index = 1.0
        while index < 60 {
            sum += term / index
            term *= square
            index += 2
        }
        return 2 * sum + exponent * 0.693_147_180_559_945_3
    }
}
