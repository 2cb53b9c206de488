/// What `ZipStreamReader` finds in an archive's bytes, in order: for each entry, its start, its
/// uncompressed data in chunks, and its end once checked.
///
/// Not `Sendable`: `data` points into the reader's buffers, or into the bytes being fed, and is
/// valid only during the handler's call. Copy what must outlive it.
public enum ZipStreamEvent {
    /// An entry begins: its local header, read and checked against `ZipLimits`.
    case entryStarted(ZipStreamEntry)
    /// The next uncompressed bytes of the current entry, never empty.
    ///
    /// Unverified until `entryEnded`: a consumer that keeps them must discard them when the
    /// reader throws instead.
    case data(UnsafeRawBufferPointer)
    /// The current entry is over and its data matched its CRC-32 and sizes (from its local
    /// header, or from its data descriptor, which was read and checked too).
    case entryEnded
}
