import CZlib

/// zlib's deflate producing raw deflate data (no zlib or gzip wrapper), what a ZIP entry holds,
/// over buffers the caller owns. Deterministic for a given level.
///
/// The `z_stream` lives at a fixed heap address because zlib keeps a pointer back to it.
final class ZipDeflater {
    enum Status: Equatable {
        /// Input was consumed or output produced; call again while there is input or until the end.
        case progress
        /// Everything, final block included, is out (only when finishing).
        case streamEnd
        /// No progress was possible: no input to take, or no room for output.
        case stalled
        /// zlib's error code for anything else.
        case failed(Int32)
    }

    private let stream: UnsafeMutablePointer<z_stream>

    /// - Parameter level: zlib compression level, 0-9 (6 is zlib's and python's default).
    /// - Throws: zlib's error code, when it cannot start (out of memory, a level out of range).
    init(level: Int32) throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits -15: raw deflate, which is what a zip entry holds (no zlib header or trailer).
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ZipWriteError("zlib error \(status)")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Uncompressed bytes handed to zlib and not yet consumed.
    var availableInput: Int { Int(stream.pointee.avail_in) }

    /// Starts a new stream with the same settings, for the next entry.
    func reset() -> Bool { deflateReset(stream) == Z_OK }

    /// Hands zlib the next bytes (at most 4 GiB); they must stay valid until consumed.
    func setInput(_ input: UnsafeRawBufferPointer) {
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
    }

    /// Deflates pending input into `output` (at most 4 GiB), flushing everything when `finishing`.
    func deflate(into output: UnsafeMutableRawBufferPointer, finishing: Bool) -> (
        status: Status, written: Int
    ) {
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let result = CZlib.deflate(stream, finishing ? Z_FINISH : Z_NO_FLUSH)
        let written = output.count - Int(stream.pointee.avail_out)
        stream.pointee.next_out = nil
        stream.pointee.avail_out = 0
        switch result {
        case Z_STREAM_END: return (.streamEnd, written)
        case Z_OK: return (.progress, written)
        case Z_BUF_ERROR: return (.stalled, written)
        default: return (.failed(result), written)
        }
    }
}
