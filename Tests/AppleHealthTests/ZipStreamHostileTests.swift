import Foundation
import HealthETLTestSupport
import HealthETLZip
import Testing

/// Reliability cases Z2 and Z3 (docs/reliability.md, "Hostile archives") for archives read front
/// to back: cut off, lying about their CRC or sizes, bombs, nesting 50 deep, encryption, and
/// stored entries whose end nothing marks.
///
/// Serialized so the memory measurements are not disturbed by the suite's own large reads.
@Suite(.serialized) struct ZipStreamHostileTests {
    /// 64 MiB of zeros, deflated (about 64 KB: ratio ~1000:1, four times the limit).
    static let zeros = ZipTestDeflater.zeros(count: 64 << 20)

    static func smallArchive() -> [UInt8] {
        var builder = ZipFixtureBuilder()
        let content = ZipTestData.text(bytes: 3_000)
        builder.addStored("a.txt", "stored")
        let deflated = builder.addCompressed(
            "b.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.entries[deflated].dataDescriptor = true
        builder.addCompressed(
            "c.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        return builder.build()
    }

    // MARK: - Cut off and damaged

    /// Cut anywhere before its central directory begins, an archive fails with a ZipError (in
    /// `feed` or in `finish`), never silently; cut inside the directory, which a stream reader
    /// does not need, every entry has been read and verified already.
    @Test(arguments: [1, 7, Int.max]) func truncatedArchiveIsRefused(piece: Int) throws {
        let bytes = Self.smallArchive()
        let directoryStart = try #require(ZipFormatTests.offsets(of: [0x50, 0x4b, 0x01, 0x02], in: bytes).first)
        for cut in 0..<bytes.count {
            let prefix = Array(bytes.prefix(cut))
            if cut >= directoryStart + 4 {
                #expect(try ZipStreamTestData.read(prefix, piece: piece).count == 3, "cut at \(cut)")
                continue
            }
            let error = try #require(ZipStreamTestData.streamError(prefix, piece: piece), "cut at \(cut)")
            let expected: [ZipError.Kind] = cut == 0 ? [.notAZip] : [.truncated, .corruptData]
            #expect(expected.contains(error.kind), "cut at \(cut): \(error)")
        }
    }

    @Test func truncationSaysWhere() throws {
        let bytes = Self.smallArchive()
        let error = try #require(ZipStreamTestData.streamError(Array(bytes.prefix(100))))
        #expect(error.kind == .truncated)
        #expect(error.entry == "b.xml")
        #expect(error.message.contains("'stream.zip', entry 'b.xml'"), "\(error.message)")
        #expect(error.message.contains("byte 100"), "\(error.message)")
        #expect(error.message.hasSuffix(ZipStreamReader.defaultAdvice), "\(error.message)")
    }

    @Test func wrongCRCIsCaughtAtTheEntrysEnd() throws {
        var builder = ZipFixtureBuilder()
        let stored = builder.addStored("a.txt", "hello")
        builder.entries[stored].crc32 ^= 1
        var delivered: [UInt8] = []
        let reader = ZipStreamReader(name: "crc.zip")
        let error = ZipTestData.zipError {
            try builder.build().withUnsafeBytes { bytes in
                try reader.feed(bytes) { event in
                    if case .data(let chunk) = event { delivered += chunk }
                    if case .entryEnded = event { Issue.record("a damaged entry ended") }
                }
            }
        }
        #expect(error?.kind == .crcMismatch)
        #expect(delivered == Array("hello".utf8))

        // The same lie in a data descriptor.
        var described = ZipFixtureBuilder()
        let content = ZipTestData.text(bytes: 1_000)
        let index = described.addCompressed(
            "b.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content) ^ 1,
            uncompressedSize: UInt64(content.count))
        described.entries[index].dataDescriptor = true
        let descriptorError = try #require(ZipStreamTestData.streamError(described.build(), piece: 7))
        #expect(descriptorError.kind == .crcMismatch)
        #expect(descriptorError.message.contains("data descriptor"), "\(descriptorError.message)")
    }

    /// A descriptor whose sizes disagree with the data, signed or not, 32 or 64 bits.
    @Test(arguments: [(true, false), (false, false), (true, true), (false, true)])
    func descriptorWhoseSizesDisagreeIsRefused(signed: Bool, zip64: Bool) throws {
        let content = ZipTestData.text(bytes: 5_000)
        for lie in ["compressed", "uncompressed"] {
            var builder = ZipFixtureBuilder()
            let index = builder.addCompressed(
                "lies.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
                uncompressedSize: UInt64(content.count) + (lie == "uncompressed" ? 1 : 0))
            // The data stays the whole deflate stream: only the descriptor and the directory lie.
            if lie == "compressed" { builder.entries[index].compressedSizeOverride = 99 }
            builder.entries[index].dataDescriptor = true
            builder.entries[index].dataDescriptorSignature = signed
            builder.entries[index].zip64 = zip64
            let error = try #require(ZipStreamTestData.streamError(builder.build(), piece: 7), "\(lie)")
            #expect(error.kind == .sizeMismatch, "\(lie): \(error)")
            #expect(error.message.contains("data descriptor"), "\(error.message)")
        }
    }

    @Test func deflateDataLongerThanItsDeclaredSizeIsRefused() throws {
        let content = ZipTestData.text(bytes: 5_000)
        var builder = ZipFixtureBuilder()
        let index = builder.addCompressed(
            "long.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: 1_000)
        builder.entries[index].uncompressedSize = 1_000
        var delivered = 0
        let error = ZipTestData.zipError {
            try builder.build().withUnsafeBytes { bytes in
                try ZipStreamReader(name: "long.zip").feed(bytes) { event in
                    if case .data(let chunk) = event { delivered += chunk.count }
                }
            }
        }
        #expect(error?.kind == .sizeMismatch)
        #expect(delivered == 1_000)
    }

    /// A declared compressed size shorter than the deflate stream: it must not read on into the
    /// next entry's bytes.
    @Test func deflateStreamRunningPastItsCompressedSizeIsCorrupt() throws {
        let content = ZipTestData.text(bytes: 5_000)
        var builder = ZipFixtureBuilder()
        let index = builder.addCompressed(
            "short.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.entries[index].compressedSizeOverride = 100
        builder.addStored("next.txt", "next")
        let error = ZipStreamTestData.streamError(builder.build(), piece: 7)
        #expect(error?.kind == .corruptData)
        #expect(error?.message.contains("end before the deflate stream does") == true)
    }

    /// 300 copies with up to four random bytes changed fail, if at all, only with ZipErrors.
    @Test func randomlyDamagedCopiesFailOnlyWithZipErrors() throws {
        let original = Self.smallArchive()
        var random = SeededGenerator(seed: 0x5_7EA)
        for round in 0..<300 {
            var bytes = original
            for _ in 0...(random.next() % 4) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                _ = try ZipStreamTestData.read(bytes, piece: Int(random.next() % 64) + 1)
            } catch is ZipError {
                continue
            } catch {
                Issue.record("round \(round): \(error) is not a ZipError")
            }
        }
    }

    @Test func bytesThatAreNotAZipAreRefused() throws {
        for bytes in [[], Array("<HealthData/>".utf8), GzipStreamTests.gzip([1, 2, 3])] {
            let error = try #require(ZipStreamTestData.streamError(bytes))
            #expect(error.kind == .notAZip, "\(error)")
        }
        // Garbage where the next entry should start.
        let error = try #require(
            ZipStreamTestData.streamError(Array(Self.smallArchive().prefix(41)) + [0xAA, 0xBB, 0xCC, 0xDD]))
        #expect(error.kind == .corruptData, "\(error)")
        #expect(error.message.contains("byte 41"), "\(error.message)")
    }

    // MARK: - Bombs

    @Test func bombWithDeclaredSizesIsRefusedBeforeAnyData() throws {
        var builder = ZipFixtureBuilder()
        builder.addCompressed(
            "zeros.bin", compressed: Self.zeros.compressed, crc32: Self.zeros.crc32, uncompressedSize: 64 << 20)
        var started = false
        let error = ZipTestData.zipError {
            try builder.build().withUnsafeBytes { bytes in
                try ZipStreamReader(name: "bomb.zip").feed(bytes) { _ in started = true }
            }
        }
        #expect(error?.kind == .compressionBomb)
        #expect(error?.entry == "zeros.bin")
        #expect(!started)
    }

    /// With a data descriptor nothing is declared up front: the ratio is caught while inflating,
    /// within the grace bytes plus one chunk, in bounded memory.
    @Test func bombBehindADataDescriptorIsStoppedMidStream() throws {
        var builder = ZipFixtureBuilder()
        let index = builder.addCompressed(
            "zeros.bin", compressed: Self.zeros.compressed, crc32: Self.zeros.crc32, uncompressedSize: 64 << 20)
        builder.entries[index].dataDescriptor = true
        let bytes = builder.build()
        let limits = ZipLimits()
        let chunkSize = 1 << 16

        let baseline = ProcessMemory.startOwnPeakMeasurement() >> 10
        var delivered: UInt64 = 0
        let reader = ZipStreamReader(name: "bomb.zip", chunkSize: chunkSize)
        let bomb = ZipTestData.zipError {
            try ZipStreamTestData.feed(bytes, piece: 4_096) { piece in
                try reader.feed(piece) { event in
                    if case .data(let chunk) = event { delivered += UInt64(chunk.count) }
                }
            }
        }
        let growth = ProcessMemory.ownPeakResidentBytes().map { ($0 >> 10) - min($0 >> 10, baseline) }

        #expect(bomb?.kind == .compressionBomb)
        #expect(bomb?.message.contains("ratio above the 250:1 limit") == true)
        #expect(delivered > 0)
        #expect(delivered <= limits.ratioGraceBytes + UInt64(chunkSize))
        let grewKilobytes = try #require(growth, "VmHWM is unreadable")
        #expect(grewKilobytes < 64 * 1024, "peak resident memory grew \(grewKilobytes) kB during the read")
    }

    /// Past `maxEntryBytes` with no size declared, even at a harmless ratio.
    @Test func entryPastTheSizeLimitIsStopped() throws {
        let content = ZipTestData.text(bytes: 200_000)
        var builder = ZipFixtureBuilder()
        let index = builder.addCompressed(
            "big.xml", compressed: ZipTestDeflater.compress(content), crc32: ZipTestDeflater.crc32(content),
            uncompressedSize: UInt64(content.count))
        builder.entries[index].dataDescriptor = true
        let error = ZipStreamTestData.streamError(builder.build(), limits: ZipLimits(maxEntryBytes: 100_000))
        #expect(error?.kind == .compressionBomb)
        #expect(error?.message.contains("limit of 100000 bytes") == true)

        var stored = ZipFixtureBuilder()
        stored.addStored("big.txt", content)
        #expect(
            ZipStreamTestData.streamError(stored.build(), limits: ZipLimits(maxEntryBytes: 100_000))?.kind
                == .compressionBomb)
    }

    @Test func tooManyEntriesAreRefused() throws {
        var builder = ZipFixtureBuilder()
        for index in 0..<11 { builder.addStored("\(index).txt", "x") }
        let error = ZipStreamTestData.streamError(builder.build(), piece: 3, limits: ZipLimits(maxEntries: 10))
        #expect(error?.kind == .tooManyEntries)
        #expect(error?.entry == "10.txt")
        #expect(try ZipStreamTestData.read(builder.build(), limits: ZipLimits(maxEntries: 11)).count == 11)
    }

    // MARK: - Nesting 50 deep

    /// A zip inside a zip, 50 deep, every level stored, deflated, or deflated with a descriptor:
    /// read whole a byte at a time, in bounded memory and time, on a thread with a 512 KiB stack
    /// (a level takes about 1 KiB of stack in a release build, under 5 KiB in a debug one).
    @Test func zipNested50DeepReadsInBoundedStackMemoryAndTime() throws {
        let depth = 50
        let leaf = Array("the innermost activity".utf8)
        var bytes = ZipStreamTestData.wrap(leaf, as: "leaf.fit", shape: 1)
        for level in (1..<depth).reversed() {
            bytes = ZipStreamTestData.wrap(bytes, as: "level-\(level).zip", shape: level)
        }
        let archive = bytes

        let result = NestedRun()
        let thread = Thread {
            let started = ContinuousClock.now
            let baseline = ProcessMemory.startOwnPeakMeasurement()
            let leaves = NestedZipReader.Leaves()
            let reader = NestedZipReader(path: "level-0.zip", leaves: leaves)
            do {
                try ZipStreamTestData.feed(archive, piece: 1) { try reader.feed($0) }
                try reader.finish()
                result.finish(
                    leaves: leaves.found, grew: (ProcessMemory.ownPeakResidentBytes() ?? 0) - baseline,
                    took: ContinuousClock.now - started)
            } catch {
                result.finish(error: error)
            }
        }
        thread.stackSize = 512 << 10
        thread.start()
        let done = result.wait(timeout: .now() + 120)
        #expect(done, "the 50-deep read did not finish in two minutes")
        #expect(result.error == nil, "\(String(describing: result.error))")
        let leaves = result.leaves
        #expect(leaves.count == 1)
        #expect(leaves.first?.content == leaf)
        #expect(leaves.first?.path.split(separator: "/").count == depth + 1)
        #expect(result.grew < 48 << 20, "peak resident memory grew \(result.grew >> 10) kB")
        #expect(result.took < .seconds(30), "took \(result.took)")
    }

    /// The caller decides how deep to go: past its depth the reader it nests refuses.
    @Test func theCallerBoundsTheDepth() throws {
        var bytes = ZipStreamTestData.wrap(Array("leaf".utf8), as: "leaf.fit", shape: 0)
        for level in (1..<50).reversed() { bytes = ZipStreamTestData.wrap(bytes, as: "level-\(level).zip", shape: 0) }
        let reader = NestedZipReader(path: "level-0.zip", maxDepth: 8, leaves: NestedZipReader.Leaves())
        #expect(throws: NestedZipReader.TooDeep.self) {
            try bytes.withUnsafeBytes { try reader.feed($0) }
        }
    }

    // MARK: - Entries it refuses

    @Test func encryptedEntryIsRefused() throws {
        for flag in [ZipFormat.flagEncrypted, ZipFormat.flagEncrypted | ZipFormat.flagStrongEncryption] {
            var builder = ZipFixtureBuilder()
            let index = builder.addStored("secret.fit", "ciphertext")
            builder.entries[index].flags |= flag
            let error = ZipStreamTestData.streamError(builder.build())
            #expect(error?.kind == .encrypted)
            #expect(error?.entry == "secret.fit")
            #expect(error?.message.contains("password") == true)
        }
    }

    @Test func storedEntryWithADescriptorAndNoSizeIsRefused() throws {
        var builder = ZipFixtureBuilder()
        let index = builder.addStored("stored.fit", "no size up front")
        builder.entries[index].dataDescriptor = true
        let error = try #require(ZipStreamTestData.streamError(builder.build(), piece: 7))
        #expect(error.kind == .notStreamable)
        #expect(error.entry == "stored.fit")
        #expect(error.message.contains("only the data descriptor after its data gives its size"), "\(error.message)")
    }

    @Test func otherMethodsAreRefused() throws {
        var builder = ZipFixtureBuilder()
        builder.addCompressed("bzip2.fit", compressed: [1, 2, 3], crc32: 0, uncompressedSize: 3, method: 12)
        let error = ZipStreamTestData.streamError(builder.build())
        #expect(error?.kind == .unsupportedMethod)
        #expect(error?.message.contains("method 12") == true)
    }

    /// A handler's error stops the reader, which throws it again rather than carry on mid-entry.
    @Test func aHandlersErrorStopsTheReader() throws {
        struct Stop: Error {}
        let bytes = Self.smallArchive()
        let reader = ZipStreamReader(name: "stop.zip")
        #expect(throws: Stop.self) {
            try bytes.withUnsafeBytes { try reader.feed($0) { if case .data = $0 { throw Stop() } } }
        }
        #expect(throws: Stop.self) { try reader.finish() }
    }
}

/// The outcome of a read on another thread.
private final class NestedRun: @unchecked Sendable {
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var _leaves: [(path: String, content: [UInt8])] = []
    private var _error: (any Error)?
    private var _grew = 0
    private var _took = Duration.zero

    var leaves: [(path: String, content: [UInt8])] { lock.withLock { _leaves } }
    var error: (any Error)? { lock.withLock { _error } }
    var grew: Int { lock.withLock { _grew } }
    var took: Duration { lock.withLock { _took } }

    func finish(
        leaves: [(path: String, content: [UInt8])] = [], grew: Int = 0, took: Duration = .zero,
        error: (any Error)? = nil
    ) {
        lock.withLock {
            _leaves = leaves
            _grew = grew
            _took = took
            _error = error
        }
        done.signal()
    }

    func wait(timeout: DispatchTime) -> Bool {
        done.wait(timeout: timeout) == .success
    }
}
