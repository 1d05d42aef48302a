extension Array {
    /// The elements in runs of at most `size` (the last one shorter): work done a batch at a time.
    public func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
