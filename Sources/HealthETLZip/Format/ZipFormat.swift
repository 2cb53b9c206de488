/// The ZIP format's field values (PKWARE APPNOTE.TXT 6.3.x). Each record's signature and fixed
/// size live with the record's type (`ZipLocalHeader`, `ZipCentralHeader`, `ZipEndRecord`, …).
public enum ZipFormat {
    /// The longest archive comment the end record's 16-bit length can announce.
    public static let maxCommentLength = 0xFFFF

    /// A 32-bit or 16-bit field holding this value defers to the ZIP64 records (APPNOTE 4.4.8).
    public static let zip64Sentinel32: UInt32 = 0xFFFF_FFFF
    public static let zip64Sentinel16: UInt16 = 0xFFFF

    /// Extra-field header ids (APPNOTE 4.5.2 and 4.6.9).
    public static let zip64ExtraFieldID: UInt16 = 0x0001
    public static let unicodePathExtraFieldID: UInt16 = 0x7075
    /// The id Android's zipalign uses for padding, which every reader skips as an unknown field.
    public static let paddingExtraFieldID: UInt16 = 0xD935

    /// General-purpose flag bits (APPNOTE 4.4.4).
    public static let flagEncrypted: UInt16 = 1 << 0
    /// CRC and sizes follow the data in a data descriptor instead of the local header.
    public static let flagDataDescriptor: UInt16 = 1 << 3
    public static let flagStrongEncryption: UInt16 = 1 << 6
    public static let flagUTF8: UInt16 = 1 << 11

    public static let methodStored: UInt16 = 0
    public static let methodDeflated: UInt16 = 8

    /// "Version needed to extract" (APPNOTE 4.4.3): 2.0 for deflate, 4.5 for ZIP64 extensions.
    public static let versionDeflate: UInt16 = 20
    public static let versionZip64: UInt16 = 45
    /// "Made by" host 3 (Unix), in the high byte, so readers honour the mode in the external attributes.
    public static let hostUnix: UInt16 = 3 << 8

    /// Unix file-type bits, stored in the high 16 bits of the external attributes.
    public static let unixTypeMask: UInt32 = 0o170000
    public static let unixRegularFile: UInt32 = 0o100000
    public static let unixSymbolicLink: UInt32 = 0o120000
    public static let unixDirectory: UInt32 = 0o040000
    /// The MS-DOS directory attribute, in the low byte of the external attributes.
    public static let dosDirectoryAttribute: UInt32 = 0x10
}
