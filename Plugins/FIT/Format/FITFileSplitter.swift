import HealthETLFIT

/// Cuts an input's bytes, arriving in chunks, into the FIT files chained in it, each held whole
/// so its CRC can be checked before anything of it is read.
///
/// FIT files are small (an hour's run is ~100 KB, a day of monitoring less), so holding one costs
/// little; a header declaring more than `maxDataBytes` is refused before any of it is held.
struct FITFileSplitter {
    /// The largest data section accepted: a day of one-second records with every sensor is ~10 MB.
    static let defaultMaxDataBytes: UInt32 = 64 << 20

    let maxDataBytes: UInt32
    private var buffer: [UInt8] = []
    /// Input offset of `buffer`'s first byte.
    private var bufferStart: Int64 = 0
    private var header: FITFileHeader?
    private var refused = false
    /// FIT files found so far.
    private(set) var files = 0
    /// Bytes taken so far.
    private(set) var consumed: Int64 = 0
    /// Bytes after the last FIT file that are no FIT header (padding some writers leave).
    private(set) var trailingBytes: Int64 = 0

    init(maxDataBytes: UInt32 = defaultMaxDataBytes) {
        self.maxDataBytes = maxDataBytes
    }

    /// Takes the next bytes, handing on each FIT file they complete.
    /// - Throws: `FITDamage` when the input is no FIT file or a header is refused; what follows
    ///   in this input is then passed over. Or what `emit` throws.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (FITFileBytes) throws -> Void) throws {
        consumed += Int64(chunk.count)
        if refused || trailingBytes > 0 {
            trailingBytes += refused ? 0 : Int64(chunk.count)
            return
        }
        buffer.append(contentsOf: chunk)
        while try next(emit: emit) {}
    }

    /// The input is over: a file still open is handed on cut off.
    /// - Throws: `FITDamage` when the input held no FIT file at all.
    mutating func finish(emit: (FITFileBytes) throws -> Void) throws {
        defer { buffer = [] }
        guard !refused, trailingBytes == 0 else { return }
        if let header {
            let present = max(0, min(buffer.count - header.size, Int(header.dataSize)))
            try emit(
                FITFileBytes(header: header, bytes: buffer, start: bufferStart, integrity: .cutOff(present: present)))
        } else if !buffer.isEmpty {
            if files > 0 {
                trailingBytes = Int64(buffer.count)
            } else {
                throw FITDamage(offset: bufferStart, reason: "the input ends inside the FIT file header")
            }
        } else if files == 0 {
            throw FITDamage(offset: 0, reason: "the input is empty")
        }
    }

    /// Moves on by one step; `false` when more bytes are needed.
    private mutating func next(emit: (FITFileBytes) throws -> Void) throws -> Bool {
        guard let header else {
            guard buffer.count >= FITFileHeader.minimumSize else { return false }
            do {
                guard let read = try buffer.withUnsafeBytes({ try FITFileHeader.read($0) }) else { return false }
                guard read.dataSize <= maxDataBytes else {
                    refused = true
                    throw FITDamage(
                        offset: bufferStart + 4,
                        reason:
                            "the header declares \(read.dataSize) data bytes, more than the \(maxDataBytes >> 20) MiB "
                            + "a FIT file is read up to")
                }
                self.header = read
                buffer.reserveCapacity(min(Int(read.dataSize), 1 << 20) + read.size + 2)
                return true
            } catch let damage as FITDamage where files > 0 && damage.offset == 0 {
                // Not another FIT file: what follows the last one is left over.
                trailingBytes = Int64(buffer.count)
                buffer = []
                return false
            } catch let damage as FITDamage {
                refused = true
                throw FITDamage(offset: bufferStart + damage.offset, reason: damage.reason)
            }
        }
        let length = header.size + Int(header.dataSize) + 2
        guard buffer.count >= length else { return false }
        let crcAt = length - 2
        let (computed, stored) = buffer.withUnsafeBytes { all in
            (
                FITCRC.of(UnsafeRawBufferPointer(rebasing: all[0..<crcAt])),
                UInt16(all[crcAt]) | UInt16(all[crcAt + 1]) << 8
            )
        }
        let file = Array(buffer[0..<length])
        let start = bufferStart
        buffer.removeFirst(length)
        bufferStart += Int64(length)
        self.header = nil
        files += 1
        try emit(
            FITFileBytes(
                header: header, bytes: file, start: start, integrity: computed == stored ? .intact : .crcMismatch))
        return true
    }
}
