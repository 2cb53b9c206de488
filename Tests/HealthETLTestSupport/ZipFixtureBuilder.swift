import Foundation
import HealthETLZip

/// Writes small ZIP archives — well-formed, ZIP64 or deliberately broken — for the ZIP reader's
/// tests, with HealthETLZip's record types.
///
/// Entries hold their data exactly as it goes into the file: for deflate (method 8) the caller
/// compresses it and passes the CRC-32 and size of the original, which may lie on purpose.
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
        /// Begin the data descriptor with its optional signature (APPNOTE 4.3.9.3).
        public var dataDescriptorSignature: Bool
        /// Extra fields appended after any ZIP64 field, in each header.
        public var localExtra: [UInt8]
        public var centralExtra: [UInt8]

        public init(
            name: [UInt8], method: UInt16, data: [UInt8], crc32: UInt32, uncompressedSize: UInt64,
            flags: UInt16 = 0, externalAttributes: UInt32 = (ZipFormat.unixRegularFile | 0o644) << 16
        ) {
            self.name = name
            self.method = method
            self.data = data
            self.crc32 = crc32
            self.uncompressedSize = uncompressedSize
            self.compressedSizeOverride = nil
            self.flags = flags
            self.versionMadeBy = ZipFormat.hostUnix | ZipFormat.versionZip64
            self.externalAttributes = externalAttributes
            self.zip64 = false
            self.dataDescriptor = false
            self.dataDescriptorSignature = true
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
                flags: Self.nameFlags(name),
                externalAttributes: (ZipFormat.unixDirectory | 0o755) << 16 | ZipFormat.dosDirectoryAttribute)
        )
    }

    /// A Unix symbolic link: mode `S_IFLNK` in the external attributes, the target as content.
    @discardableResult
    public mutating func addSymlink(_ name: String, target: String) -> Int {
        let content = Array(target.utf8)
        return add(
            Entry(
                name: Array(name.utf8), method: 0, data: content, crc32: Self.crc32(content),
                uncompressedSize: UInt64(content.count), flags: Self.nameFlags(name),
                externalAttributes: (ZipFormat.unixSymbolicLink | 0o777) << 16))
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
            Zip64EndRecord(
                versionMadeBy: ZipFormat.versionZip64, versionNeeded: ZipFormat.versionZip64,
                entriesOnDisk: count, entryCount: count, directorySize: directorySize,
                directoryOffset: directoryOffset
            ).append(to: &out)
            Zip64EndLocator(recordOffset: recordOffset).append(to: &out)
        }
        let count16 = zip64EndRecord ? ZipFormat.zip64Sentinel16 : UInt16(truncatingIfNeeded: count)
        ZipEndRecord(
            entriesOnDisk: count16, entryCount: count16,
            directorySize: Self.field32(directorySize, zip64: zip64EndRecord),
            directoryOffset: Self.field32(directoryOffset, zip64: zip64EndRecord),
            commentLength: UInt16(comment.count)
        ).append(to: &out)
        out += comment
        return out
    }

    /// Writes `build()` to `path`.
    public func write(to path: String) throws {
        try Data(build()).write(to: URL(fileURLWithPath: path))
    }

    /// CRC-32 as ZIP declares it.
    public static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        ZipCRC32.checksum(bytes)
    }

    private static func nameFlags(_ name: String) -> UInt16 {
        name.utf8.allSatisfy { $0 < 0x80 } ? 0 : ZipFormat.flagUTF8
    }

    /// A 32-bit size or offset field: the sentinel for a ZIP64 entry, else the value, wrapped if
    /// it does not fit (as a lying fixture may want).
    private static func field32(_ value: UInt64, zip64: Bool) -> UInt32 {
        zip64 ? ZipFormat.zip64Sentinel32 : UInt32(truncatingIfNeeded: value)
    }

    /// What both headers say about `entry`, with the CRC and sizes given (zero in a local header
    /// that a data descriptor follows).
    private static func fields(
        of entry: Entry, crc32: UInt32, compressedSize: UInt64, uncompressedSize: UInt64, nameLength: Int,
        extraLength: Int
    ) -> ZipEntryFields {
        ZipEntryFields(
            versionNeeded: entry.zip64 ? ZipFormat.versionZip64 : ZipFormat.versionDeflate,
            flags: entry.flags | (entry.dataDescriptor ? ZipFormat.flagDataDescriptor : 0),
            method: entry.method,
            modified: .dosEpoch, crc32: crc32, compressedSize: field32(compressedSize, zip64: entry.zip64),
            uncompressedSize: field32(uncompressedSize, zip64: entry.zip64), nameLength: UInt16(nameLength),
            extraLength: UInt16(extraLength))
    }

    private func writeLocalHeader(_ entry: Entry, into out: inout [UInt8]) {
        var extra: [UInt8] = []
        if entry.zip64 {
            // A data descriptor carries the sizes, so the local header's are zero.
            Zip64ExtraField(
                uncompressedSize: entry.dataDescriptor ? 0 : entry.uncompressedSize,
                compressedSize: entry.dataDescriptor ? 0 : entry.compressedSize
            ).append(to: &extra)
        }
        extra += entry.localExtra
        ZipLocalHeader(
            Self.fields(
                of: entry, crc32: entry.dataDescriptor ? 0 : entry.crc32,
                compressedSize: entry.dataDescriptor ? 0 : entry.compressedSize,
                uncompressedSize: entry.dataDescriptor ? 0 : entry.uncompressedSize,
                nameLength: entry.name.count,
                extraLength: extra.count)
        ).append(to: &out)
        out += entry.name
        out += extra
    }

    private func writeDataDescriptor(_ entry: Entry, into out: inout [UInt8]) {
        var descriptor: [UInt8] = []
        ZipDataDescriptor(
            crc32: entry.crc32, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize
        ).append(to: &descriptor, zip64: entry.zip64)
        out += entry.dataDescriptorSignature ? descriptor[...] : descriptor.dropFirst(4)
    }

    private func writeCentralHeader(_ entry: Entry, name: [UInt8], offset: UInt64, into out: inout [UInt8]) {
        var extra: [UInt8] = []
        if entry.zip64 {
            Zip64ExtraField(
                uncompressedSize: entry.uncompressedSize, compressedSize: entry.compressedSize,
                localHeaderOffset: offset
            ).append(to: &extra)
        }
        extra += entry.centralExtra
        ZipCentralHeader(
            versionMadeBy: entry.versionMadeBy,
            fields: Self.fields(
                of: entry, crc32: entry.crc32, compressedSize: entry.compressedSize,
                uncompressedSize: entry.uncompressedSize, nameLength: name.count, extraLength: extra.count),
            externalAttributes: entry.externalAttributes,
            localHeaderOffset: Self.field32(offset, zip64: entry.zip64)
        ).append(to: &out)
        out += name
        out += extra
    }
}
