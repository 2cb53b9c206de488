/// Where a `ByteWriter` sends its bytes: a file, a zip entry, or both at once, so one pass of
/// rendering can feed every output without a temporary copy.
protocol ByteSink: AnyObject {
    /// Takes the next bytes, in order; throws an error that says what failed and where.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// No more bytes will come: close the file or end the zip entry.
    func close() throws
}
