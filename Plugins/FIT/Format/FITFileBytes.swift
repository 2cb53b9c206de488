/// One FIT file of an input, whole or cut off: its header and bytes, where it starts in the
/// input, and whether its CRC holds.
struct FITFileBytes {
    enum Integrity: Equatable {
        /// Complete, and its CRC matches.
        case intact
        /// Complete, but its CRC does not match: some byte is wrong, nobody knows which.
        case crcMismatch
        /// The input ended before the file did: `present` of its declared data bytes are here.
        case cutOff(present: Int)
    }

    let header: FITFileHeader
    /// The header, the data and (when complete) the CRC.
    let bytes: [UInt8]
    /// Input offset of the file's first byte.
    let start: Int64
    let integrity: Integrity

    /// Input offset of the data section.
    var dataStart: Int64 { start + Int64(header.size) }

    /// Calls `body` with the data section (as much of it as is present).
    func withData<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { all in
            let end = min(all.count, header.size + Int(header.dataSize))
            return try body(UnsafeRawBufferPointer(rebasing: all[header.size..<end]))
        }
    }
}
