import CZlib
import HealthETLTestSupport
import Testing

@testable import HealthETLZip

/// ISA-L's inflate, held to zlib's: the same bytes out of every stream zlib's deflate writes, the
/// stream's end found to the byte whatever the pieces it arrives in, and, for damaged streams, the
/// same content whenever both call the stream whole.
@Suite struct ZipInflaterTests {
    /// What one inflater made of `stream` fed `piece` bytes at a time into `room`-byte outputs.
    struct Outcome: Equatable {
        var output: [UInt8] = []
        /// Compressed bytes taken when the stream ended, or nil if it did not.
        var endedAt: UInt64?
        var failed = false
    }

    static func inflate(_ stream: [UInt8], piece: Int, room: Int) -> Outcome {
        let inflater = ZipInflater()
        var outcome = Outcome()
        var buffer = [UInt8](repeating: 0, count: room)
        var start = 0
        stream.withUnsafeBytes { all in
            feeding: while start < all.count {
                let end = min(all.count, start + piece)
                inflater.setInput(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                defer { inflater.clearInput() }
                while true {
                    let (status, written) = buffer.withUnsafeMutableBytes { inflater.inflate(into: $0) }
                    outcome.output += buffer[0..<written]
                    #expect(inflater.totalInput <= UInt64(end), "more taken than was given")
                    switch status {
                    case .progress: continue
                    case .needsInput: break
                    case .streamEnd:
                        outcome.endedAt = inflater.totalInput
                        #expect(inflater.availableInput == end - Int(inflater.totalInput))
                        // Called again after the end, it hands nothing more back.
                        let again = buffer.withUnsafeMutableBytes { inflater.inflate(into: $0) }
                        #expect(again.status == .streamEnd && again.written == 0)
                        #expect(inflater.totalInput == outcome.endedAt)
                        break feeding
                    case .corrupt:
                        outcome.failed = true
                        break feeding
                    }
                    break
                }
                start = end
            }
        }
        return outcome
    }

    /// zlib's inflate of `stream` in one go: its output, and where the stream ended, if it did.
    static func zlibInflate(_ stream: [UInt8]) -> Outcome {
        var outcome = Outcome()
        var z = z_stream()
        guard inflateInit2_(&z, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib's inflate did not start")
        }
        defer { inflateEnd(&z) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var input = stream
        input.withUnsafeMutableBufferPointer { all in
            z.next_in = all.baseAddress
            z.avail_in = UInt32(all.count)
            while true {
                let result = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
                    z.next_out = out.baseAddress
                    z.avail_out = UInt32(out.count)
                    return CZlib.inflate(&z, Z_NO_FLUSH)
                }
                outcome.output += buffer[0..<(buffer.count - Int(z.avail_out))]
                if result == Z_STREAM_END {
                    outcome.endedAt = UInt64(z.total_in)
                    return
                }
                if result != Z_OK {
                    outcome.failed = result != Z_BUF_ERROR
                    return
                }
            }
        }
        return outcome
    }

    /// Text that compresses as an export does, or bytes that do not compress at all.
    static func content(_ size: Int, compressible: Bool, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        if !compressible { return (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let words = [
            " <Record type=\"HKQuantityTypeIdentifierHeartRate\"", " value=\"72\"", " unit=\"count/min\"", "\n",
        ]
        var text: [UInt8] = []
        while text.count < size { text += Array(words[Int(random.next() % 4)].utf8) }
        return Array(text.prefix(size))
    }

    static func deflate(_ content: [UInt8], level: Int32) -> [UInt8] {
        let deflater = ZipTestDeflater(level: level)
        content.withUnsafeBytes { deflater.append($0) }
        return deflater.finish()
    }

    /// What follows a stream in a front-to-back read: the next record's bytes.
    static let trailer: [UInt8] = Array("PK\u{3}\u{4}the next local header".utf8)

    @Test(arguments: [0, 1, 6, 9])
    func everyStreamZlibWritesInflatesToItsContentAndEndsToTheByte(level: Int32) {
        for (index, size) in [0, 1, 1_000, 70_000, 300_000].enumerated() {
            for compressible in [true, false] {
                let content = Self.content(size, compressible: compressible, seed: UInt64(index))
                let stream = Self.deflate(content, level: level)
                for piece in [1, 2, 7, 64, 4_096, Int.max] {
                    for room in [1, 300, 1 << 16] where room > 1 || size <= 1_000 {
                        let outcome = Self.inflate(stream + Self.trailer, piece: piece, room: room)
                        #expect(!outcome.failed)
                        #expect(outcome.output == content, "level \(level), \(size) bytes, pieces of \(piece)")
                        #expect(outcome.endedAt == UInt64(stream.count), "pieces of \(piece), room \(room)")
                    }
                }
            }
        }
    }

    /// Damaged streams never crash it; whenever zlib and ISA-L both read one to its end, they
    /// agree on its content and where it ends.
    @Test func damagedStreamsReadAsZlibReadsThemWhenBothCallThemWhole() {
        var random = SeededGenerator(seed: 0x1_5A1)
        let content = Self.content(20_000, compressible: true, seed: 7)
        var bothWhole = 0
        for round in 0..<600 {
            var stream = Self.deflate(content, level: Int32(round % 10))
            for _ in 0...(random.next() % 4) {
                stream[Int(random.next() % UInt64(stream.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            let piece = Int(random.next() % 64) + 1
            let isal = Self.inflate(stream + Self.trailer, piece: piece, room: 300)
            let zlib = Self.zlibInflate(stream + Self.trailer)
            if let end = isal.endedAt, zlib.endedAt != nil {
                bothWhole += 1
                #expect(isal == zlib, "round \(round)")
                #expect(end <= UInt64(stream.count))
            }
        }
        // Damage in a stored block or a literal leaves the stream whole: the CRC catches it.
        #expect(bothWhole > 30)
    }

    @Test func checksumsAreZlibs() {
        var random = SeededGenerator(seed: 0xC3C)
        for size in [0, 1, 15, 16, 17, 63, 64, 65, 1_000, 100_003] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let split = size == 0 ? 0 : Int(random.next() % UInt64(size))
            let ours = bytes.withUnsafeBytes { all in
                ZipCRC32.update(
                    ZipCRC32.update(0, with: UnsafeRawBufferPointer(rebasing: all[0..<split])),
                    with: UnsafeRawBufferPointer(rebasing: all[split...]))
            }
            let zlibs = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
            #expect(ours == zlibs, "\(size) bytes split at \(split)")
        }
    }
}
