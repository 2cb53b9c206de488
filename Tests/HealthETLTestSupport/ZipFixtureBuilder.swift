import Foundation

/// Writes small ZIP archives byte by byte — well-formed, ZIP64 or deliberately broken — for the
/// ZIP reader's tests.
///
/// Entries hold their data exactly as it goes into the file: for deflate (method 8) the caller
/// compresses it and passes the CRC-32 and size of the original, since this target has no zlib.
/// Every field is a plain `var`, so a test can make an entry lie about itself before `build()`.
public struct ZipFixtureBuilder: Sendable {
    public struct Entry: Sendable {
        /// The name's raw bytes, so tests can store CP437 or invalid UTF-8.
        public var name: [UInt8]
        public var method: UInt16
        /// The bytes written after the local header (compressed already, for method 8).
        public var data: [UInt8]
        public var crc32: UInt32
        public var uncompressedSize: UInt64
        /// Written to both headers instead of `data.count` when set.
        public var compressedSizeOverride: UInt64?
        public var flags: UInt16
        /// High byte: host system (3 = Unix); low byte: spec version.
        public var versionMadeBy: UInt16
        /// High 16 bits: Unix mode; low byte: MS-DOS attributes.
        public var externalAttributes: UInt32
        /// Write 0xFFFFFFFF in the 32-bit size and offset fields and the real values in a ZIP64 extra field.
        public var zip64: Bool
        /// Set flag bit 3, zero the local header's CRC and sizes, and append a data descriptor.
        public var dataDescriptor: Bool
        /// Extra fields appended after any ZIP64 field, in each header.
        public var localExtra: [UInt8]
        public var centralExtra: [UInt8]

        public init(
            name: [UInt8], method: UInt16, data: [UInt8], crc32: UInt32, uncompressedSize: UInt64,
            flags: UInt16 = 0, externalAttributes: UInt32 = 0o100644 << 16
        ) {
            self.name = name
            self.method = method
            self.data = data
            self.crc32 = crc32
            self.uncompressedSize = uncompressedSize
            self.compressedSizeOverride = nil
            self.flags = flags
            self.versionMadeBy = 3 << 8 | 45
            self.externalAttributes = externalAttributes
            self.zip64 = false
            self.dataDescriptor = false
            self.localExtra = []
            self.centralExtra = []
        }

        var compressedSize: UInt64 { compressedSizeOverride ?? UInt64(data.count) }
    }

    /// A second central directory record for an existing entry's local header: the
    /// overlapping-entry bomb's building block.
    public struct Alias: Sendable {
        public var entryIndex: Int
        public var name: String
    }

    public var entries: [Entry] = []
    public var aliases: [Alias] = []
    /// Write a ZIP64 end record and locator, with sentinels in the classic end record.
    public var zip64EndRecord = false
    public var comment: [UInt8] = []

    /// UTF-8 names are flagged as such (general-purpose bit 11) unless they are plain ASCII.
    public init() {}

    @discardableResult
    public mutating func addStored(_ name: String, _ content: [UInt8]) -> Int {
        add(
            Entry(
                name: Array(name.utf8), method: 0, data: content, crc32: Self.crc32(content),
                uncompressedSize: UInt64(content.count), flags: Self.nameFlags(name)))
    }

    @discardableResult
    public mutating func addStored(_ name: String, _ content: String) -> Int {
        addStored(name, Array(content.utf8))
    }

    /// Adds data the caller compressed (raw deflate for method 8), with the original's CRC and size.
    @discardableResult
    public mutating func addCompressed(
        _ name: String, compressed: [UInt8], crc32: UInt32, uncompressedSize: UInt64, method: UInt16 = 8
    ) -> Int {
        add(
            Entry(
                name: Array(name.utf8), method: method, data: compressed, crc32: crc32,
                uncompressedSize: uncompressedSize, flags: Self.nameFlags(name)))
    }

    @discardableResult
    public mutating func addDirectory(_ name: String) -> Int {
        add(
            Entry(
                name: Array(name.utf8), method: 0, data: [], crc32: 0, uncompressedSize: 0,
                flags: Self.nameFlags(name), externalAttributes: 0o040755 << 16 | 0x10))
    }

    /// A Unix symbolic link: mode `S_IFLNK` in the external attributes, the target as content.
    @discardableResult
    public mutating func addSymlink(_ name: String, target: String) -> Int {
        let content = Array(target.utf8)
        return add(
            Entry(
                name: Array(name.utf8), method: 0, data: content, crc32: Self.crc32(content),
                uncompressedSize: UInt64(content.count), flags: Self.nameFlags(name),
                externalAttributes: 0o120777 << 16))
    }

    @discardableResult
    public mutating func add(_ entry: Entry) -> Int {
        entries.append(entry)
        return entries.count - 1
    }

    /// Adds a central record named `name` pointing at entry `index`'s local header.
    public mutating func addAlias(of index: Int, named name: String) {
        aliases.append(Alias(entryIndex: index, name: name))
    }

    /// The archive's bytes.
    public func build() -> [UInt8] {
        var out: [UInt8] = []
        var offsets: [UInt64] = []
        for entry in entries {
            offsets.append(UInt64(out.count))
            writeLocalHeader(entry, into: &out)
            out += entry.data
            if entry.dataDescriptor { writeDataDescriptor(entry, into: &out) }
        }
        let directoryOffset = UInt64(out.count)
        for (entry, offset) in zip(entries, offsets) {
            writeCentralHeader(entry, name: entry.name, offset: offset, into: &out)
        }
        for alias in aliases {
            let entry = entries[alias.entryIndex]
            writeCentralHeader(
                entry, name: Array(alias.name.utf8), offset: offsets[alias.entryIndex], into: &out)
        }
        let directorySize = UInt64(out.count) - directoryOffset
        let count = UInt64(entries.count + aliases.count)
        if zip64EndRecord {
            let recordOffset = UInt64(out.count)
            out.le32(0x0606_4b50)
            out.le64(44)  // size of the rest of this record
            out.le16(45)
            out.le16(45)
            out.le32(0)
            out.le32(0)
            out.le64(count)
            out.le64(count)
            out.le64(directorySize)
            out.le64(directoryOffset)
            out.le32(0x0706_4b50)
            out.le32(0)
            out.le64(recordOffset)
            out.le32(1)
        }
        out.le32(0x0605_4b50)
        out.le16(0)
        out.le16(0)
        out.le16(zip64EndRecord ? 0xFFFF : UInt16(truncatingIfNeeded: count))
        out.le16(zip64EndRecord ? 0xFFFF : UInt16(truncatingIfNeeded: count))
        out.le32(zip64EndRecord ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: directorySize))
        out.le32(zip64EndRecord ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: directoryOffset))
        out.le16(UInt16(comment.count))
        out += comment
        return out
    }

    /// Writes `build()` to `path`.
    public func write(to path: String) throws {
        try Data(build()).write(to: URL(fileURLWithPath: path))
    }

    /// CRC-32 (ISO-HDLC, as ZIP uses), bit by bit: slow, but fixtures are small.
    public static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func nameFlags(_ name: String) -> UInt16 {
        name.utf8.allSatisfy { $0 < 0x80 } ? 0 : 1 << 11
    }

    private func writeLocalHeader(_ entry: Entry, into out: inout [UInt8]) {
        var extra: [UInt8] = []
        if entry.zip64 {
            extra.le16(0x0001)
            extra.le16(16)
            extra.le64(entry.dataDescriptor ? 0 : entry.uncompressedSize)
            extra.le64(entry.dataDescriptor ? 0 : entry.compressedSize)
        }
        extra += entry.localExtra
        out.le32(0x0403_4b50)
        out.le16(entry.zip64 ? 45 : 20)
        out.le16(entry.flags | (entry.dataDescriptor ? 1 << 3 : 0))
        out.le16(entry.method)
        out.le16(0)  // time: midnight
        out.le16(1 << 5 | 1)  // date: 1980-01-01
        if entry.dataDescriptor {
            out.le32(0)
            out.le32(entry.zip64 ? 0xFFFF_FFFF : 0)
            out.le32(entry.zip64 ? 0xFFFF_FFFF : 0)
        } else {
            out.le32(entry.crc32)
            out.le32(entry.zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: entry.compressedSize))
            out.le32(entry.zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: entry.uncompressedSize))
        }
        out.le16(UInt16(entry.name.count))
        out.le16(UInt16(extra.count))
        out += entry.name
        out += extra
    }

    private func writeDataDescriptor(_ entry: Entry, into out: inout [UInt8]) {
        out.le32(0x0807_4b50)
        out.le32(entry.crc32)
        if entry.zip64 {
            out.le64(entry.compressedSize)
            out.le64(entry.uncompressedSize)
        } else {
            out.le32(UInt32(truncatingIfNeeded: entry.compressedSize))
            out.le32(UInt32(truncatingIfNeeded: entry.uncompressedSize))
        }
    }

    private func writeCentralHeader(_ entry: Entry, name: [UInt8], offset: UInt64, into out: inout [UInt8]) {
        var extra: [UInt8] = []
        if entry.zip64 {
            extra.le16(0x0001)
            extra.le16(24)
            extra.le64(entry.uncompressedSize)
            extra.le64(entry.compressedSize)
            extra.le64(offset)
        }
        extra += entry.centralExtra
        out.le32(0x0201_4b50)
        out.le16(entry.versionMadeBy)
        out.le16(entry.zip64 ? 45 : 20)
        out.le16(entry.flags | (entry.dataDescriptor ? 1 << 3 : 0))
        out.le16(entry.method)
        out.le16(0)
        out.le16(1 << 5 | 1)
        out.le32(entry.crc32)
        out.le32(entry.zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: entry.compressedSize))
        out.le32(entry.zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: entry.uncompressedSize))
        out.le16(UInt16(name.count))
        out.le16(UInt16(extra.count))
        out.le16(0)  // comment length
        out.le16(0)  // disk number start
        out.le16(0)  // internal attributes
        out.le32(entry.externalAttributes)
        out.le32(entry.zip64 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: offset))
        out += name
        out += extra
    }
}

extension [UInt8] {
    fileprivate mutating func le16(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    fileprivate mutating func le32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    fileprivate mutating func le64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
