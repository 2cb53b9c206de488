/// One record of an archive's central directory: what the archive says about an entry.
///
/// Nothing here has been checked against the entry's data yet; `ZipArchive.read` does that.
public struct ZipEntry: Sendable, Hashable {
    /// The path as stored: UTF-8, or CP437 decoded best-effort when the UTF-8 flag is absent.
    public let name: String
    /// 0 stored, 8 deflate; reading any other method throws `ZipError.Kind.unsupportedMethod`.
    public let method: UInt16
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    public let crc32: UInt32
    public let localHeaderOffset: UInt64
    public let isDirectory: Bool
    /// From the external attributes (unix mode `S_IFLNK`); the entry's data is the link target.
    public let isSymbolicLink: Bool
    public let isEncrypted: Bool
    /// When the entry was last modified, as the writer's local wall clock (no time zone).
    public let modified: ZipTimestamp

    /// True for absolute paths, "..", backslash-separated parent refs, drive letters.
    ///
    /// Such a name must never become a path on disk as-is. A NUL byte also counts, since C
    /// APIs would silently cut the name there.
    public var hasUnsafePath: Bool { ZipEntryName.isUnsafePath(name) }

    /// True for `__MACOSX/` entries and AppleDouble `._` files, which Finder adds when zipping.
    public var isMacMetadata: Bool { ZipEntryName.isMacMetadata(name) }
}
