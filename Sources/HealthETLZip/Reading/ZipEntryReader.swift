/// Streams one entry's data, stored or deflated, through a single output buffer, checking the
/// declared size, the CRC-32 and the ratio budget as it goes.
struct ZipEntryReader {
    private let file: ZipFileDescriptor
    private let entry: ZipEntry
    private let data: Range<UInt64>
    private let limits: ZipLimits
    private let chunkSize: Int
    private var produced: UInt64 = 0
    private var crc: UInt32 = 0

    /// - Parameter data: the entry's compressed bytes, already checked to lie within the file.
    init(file: ZipFileDescriptor, entry: ZipEntry, data: Range<UInt64>, limits: ZipLimits, chunkSize: Int) {
        self.file = file
        self.entry = entry
        self.data = data
        self.limits = limits
        // The inflater counts in 32 bits; a gigabyte per chunk is far past any useful size anyway.
        self.chunkSize = min(max(chunkSize, 1), 1 << 30)
    }

    /// Delivers the uncompressed bytes to `consume`, then verifies the size and CRC, unless
    /// `stoppingAfter` bytes were delivered first (for sniffing a prefix).
    mutating func run(stoppingAfter limit: UInt64?, into consume: (UnsafeRawBufferPointer) throws -> Void)
        throws
    {
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { output.deallocate() }
        let finished: Bool
        switch entry.method {
        case ZipFormat.methodDeflated:
            finished = try inflate(into: output, stoppingAfter: limit, consume)
        default:
            finished = try copyStored(into: output, stoppingAfter: limit, consume)
        }
        guard finished else { return }
        guard produced == entry.uncompressedSize else {
            throw failure(
                .sizeMismatch,
                "its data ends after \(produced) bytes, short of the \(entry.uncompressedSize) bytes it declares"
            )
        }
        guard crc == entry.crc32 else {
            throw failure(
                .crcMismatch,
                "its content has CRC-32 \(hex(crc)) but the archive declares \(hex(entry.crc32)): the "
                    + "archive is damaged")
        }
    }

    /// Copies a stored entry. - Returns: false if it stopped early at `limit`.
    private mutating func copyStored(
        into output: UnsafeMutableRawBufferPointer, stoppingAfter limit: UInt64?,
        _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Bool {
        while produced < entry.uncompressedSize {
            let count = Int(min(UInt64(chunkSize), entry.uncompressedSize - produced))
            let chunk = UnsafeMutableRawBufferPointer(rebasing: output[0..<count])
            guard try file.read(into: chunk, at: data.lowerBound + produced) == count else {
                throw failure(
                    .truncated, "the file ended while its data was being read; it may have been replaced")
            }
            try deliver(UnsafeRawBufferPointer(chunk), consume)
            if let limit, produced >= limit { return false }
        }
        return true
    }

    /// Inflates a deflated entry, never producing a byte past its declared size.
    /// - Returns: false if it stopped early at `limit`.
    private mutating func inflate(
        into output: UnsafeMutableRawBufferPointer, stoppingAfter limit: UInt64?,
        _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Bool {
        let inflater = ZipInflater()
        let input = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Int(min(UInt64(chunkSize), max(UInt64(data.count), 1))), alignment: 16)
        defer { input.deallocate() }
        var nextInput = data.lowerBound
        // One spare byte: the declared size is reached, but does the stream really end there?
        var probe: UInt8 = 0

        while true {
            if inflater.availableInput == 0 && nextInput < data.upperBound {
                let count = Int(min(UInt64(input.count), data.upperBound - nextInput))
                let chunk = UnsafeMutableRawBufferPointer(rebasing: input[0..<count])
                guard try file.read(into: chunk, at: nextInput) == count else {
                    throw failure(
                        .truncated, "the file ended while its data was being read; it may have been replaced")
                }
                inflater.setInput(chunk)
                nextInput += UInt64(count)
            }

            let room = Int(min(UInt64(output.count), entry.uncompressedSize - produced))
            let result: (status: ZipInflater.Status, written: Int)
            if room > 0 {
                result = inflater.inflate(into: UnsafeMutableRawBufferPointer(rebasing: output[0..<room]))
            } else {
                result = withUnsafeMutableBytes(of: &probe) { inflater.inflate(into: $0) }
                if result.written > 0 {
                    throw failure(
                        .sizeMismatch,
                        "its data inflates to more than the \(entry.uncompressedSize) bytes it declares; reading "
                            + "stopped there")
                }
            }

            if result.written > 0 {
                if limits.exceedsRatio(
                    produced: produced + UInt64(result.written), consumed: inflater.totalInput)
                {
                    throw failure(
                        .compressionBomb,
                        "\(inflater.totalInput) compressed bytes inflated to over \(produced + UInt64(result.written)) "
                            + "bytes, a ratio above the \(limits.maxCompressionRatio):1 limit that only zip bombs reach; "
                            + "reading stopped there")
                }
                try deliver(UnsafeRawBufferPointer(rebasing: output[0..<result.written]), consume)
                if let limit, produced >= limit { return false }
            }

            switch result.status {
            case .streamEnd:
                return true
            case .progress:
                continue
            case .needsInput:
                if inflater.availableInput == 0 && nextInput == data.upperBound {
                    throw failure(
                        .corruptData,
                        "its \(data.count) compressed bytes end before the deflate stream does")
                }
            case .corrupt(let reason):
                throw failure(
                    .corruptData,
                    "its compressed data is damaged (\(reason)) after \(inflater.totalInput) of "
                        + "\(data.count) bytes")
            }
        }
    }

    private mutating func deliver(
        _ chunk: UnsafeRawBufferPointer, _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        crc = ZipCRC32.update(crc, with: chunk)
        produced += UInt64(chunk.count)
        try consume(chunk)
    }

    private func failure(_ kind: ZipError.Kind, _ problem: String) -> ZipError {
        ZipError.entry(
            kind, entry, in: file.path,
            "\(problem) (data at bytes \(data.lowerBound)..<\(data.upperBound))")
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
