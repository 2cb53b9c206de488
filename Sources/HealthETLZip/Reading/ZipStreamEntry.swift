/// One entry of an archive read front to back (`ZipStreamReader`), as its local header announces it.
///
/// A local header says less than a central directory record. It holds no file attributes, so a
/// directory is known only by the `/` that ends its name and a symbolic link reads as a file
/// holding its target. A streaming writer leaves the CRC-32 and the sizes to the data descriptor
/// after the data, so they are nil here. Nothing here has been checked against the data yet:
/// `ZipStreamEvent.entryEnded` says it was.
public struct ZipStreamEntry: Sendable, Hashable {
    /// The path as stored: UTF-8, or CP437 decoded best-effort when the UTF-8 flag is absent.
    public let name: String
    /// 0 stored or 8 deflate: the reader refuses any other method before the entry starts.
    public let method: UInt16
    /// Where its local header starts, counted from the archive's first byte.
    public let localHeaderOffset: UInt64
    /// The compressed size its local header declares; nil when the data descriptor holds it.
    public let compressedSize: UInt64?
    /// The uncompressed size its local header declares; nil when the data descriptor holds it.
    public let uncompressedSize: UInt64?
    /// The CRC-32 its local header declares; nil when the data descriptor holds it.
    public let crc32: UInt32?
    /// Whether a data descriptor follows its data (general-purpose flag bit 3).
    public let hasDataDescriptor: Bool
    /// When the entry was last modified, as the writer's local wall clock (no time zone).
    public let modified: ZipTimestamp

    /// True when the name ends with `/`, the only sign of a directory a local header carries.
    public var isDirectory: Bool { name.utf8.last == UInt8(ascii: "/") }

    /// True for absolute paths, "..", backslash-separated parent refs, drive letters and NUL
    /// bytes: such a name must never become a path on disk as-is.
    public var hasUnsafePath: Bool { ZipEntryName.isUnsafePath(name) }

    /// True for `__MACOSX/` entries and AppleDouble `._` files, which Finder adds when zipping.
    public var isMacMetadata: Bool { ZipEntryName.isMacMetadata(name) }
}
