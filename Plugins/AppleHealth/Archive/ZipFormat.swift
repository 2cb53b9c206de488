/// The record signatures and sentinel values of the ZIP format (PKWARE APPNOTE.TXT 6.3.x).
enum ZipFormat {
    static let localHeaderSignature: UInt32 = 0x0403_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let endOfCentralDirectorySignature: UInt32 = 0x0605_4b50
    static let zip64EndOfCentralDirectorySignature: UInt32 = 0x0606_4b50
    static let zip64EndLocatorSignature: UInt32 = 0x0706_4b50

    /// Fixed part of each record, before its variable-length fields.
    static let localHeaderSize = 30
    static let centralHeaderSize = 46
    static let endOfCentralDirectorySize = 22
    static let zip64EndOfCentralDirectorySize = 56
    static let zip64EndLocatorSize = 20
    static let maxCommentLength = 0xFFFF

    /// A 32-bit or 16-bit field holding this value defers to the ZIP64 records (APPNOTE 4.4.8).
    static let zip64Sentinel32: UInt32 = 0xFFFF_FFFF
    static let zip64Sentinel16: UInt16 = 0xFFFF

    /// Extra-field header ids (APPNOTE 4.5.2 and 4.6.9).
    static let zip64ExtraFieldID: UInt16 = 0x0001
    static let unicodePathExtraFieldID: UInt16 = 0x7075

    /// General-purpose flag bits (APPNOTE 4.4.4).
    static let flagEncrypted: UInt16 = 1 << 0
    static let flagStrongEncryption: UInt16 = 1 << 6
    static let flagUTF8: UInt16 = 1 << 11

    static let methodStored: UInt16 = 0
    static let methodDeflated: UInt16 = 8

    /// Unix file-type bits, stored in the high 16 bits of the external attributes.
    static let unixTypeMask: UInt32 = 0o170000
    static let unixSymbolicLink: UInt32 = 0o120000
    static let unixDirectory: UInt32 = 0o040000
    /// The MS-DOS directory attribute, in the low byte of the external attributes.
    static let dosDirectoryAttribute: UInt32 = 0x10
}
