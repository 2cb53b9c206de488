extension ZipDataDescriptor {
    /// How a descriptor may be laid out (APPNOTE 4.3.9): its signature is optional, and its sizes
    /// take 8 bytes each for a ZIP64 entry and 4 otherwise.
    struct Layout: Sendable, Equatable {
        var hasSignature: Bool
        var zip64: Bool

        /// Its size in bytes.
        var size: Int { (hasSignature ? 4 : 0) + 4 + (zip64 ? 16 : 8) }

        /// The largest layout: a reader that has this many bytes can try them all.
        static let largestSize = 24

        /// Every layout, the signed ones first, then the sizes' width the local header points
        /// to: 64 bits when it has a ZIP64 extra field (APPNOTE 4.3.9.2).
        static func candidates(zip64First: Bool) -> [Layout] {
            [true, false].flatMap { signed in
                [zip64First, !zip64First].map { Layout(hasSignature: signed, zip64: $0) }
            }
        }
    }

    /// Reads a descriptor laid out as `layout` from the start of `bytes`.
    /// - Returns: nil if `bytes` is too short, or a signed layout's signature is missing.
    init?(_ bytes: ArraySlice<UInt8>, layout: Layout) {
        var reader = ZipByteReader(bytes)
        if layout.hasSignature {
            guard reader.uint32() == Self.signature else { return nil }
        }
        guard let crc32 = reader.uint32() else { return nil }
        if layout.zip64 {
            guard let compressed = reader.uint64(), let uncompressed = reader.uint64() else { return nil }
            self.init(crc32: crc32, compressedSize: compressed, uncompressedSize: uncompressed)
        } else {
            guard let compressed = reader.uint32(), let uncompressed = reader.uint32() else { return nil }
            self.init(crc32: crc32, compressedSize: UInt64(compressed), uncompressedSize: UInt64(uncompressed))
        }
    }
}
