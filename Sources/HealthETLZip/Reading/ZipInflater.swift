import CZlib

/// zlib's inflate for raw deflate data (no zlib or gzip wrapper), over buffers the caller owns.
///
/// The `z_stream` lives at a fixed heap address because zlib keeps a pointer back to it.
final class ZipInflater {
    enum Status: Equatable {
        /// Input was consumed or output produced; call again.
        case progress
        /// The deflate stream's final block is complete.
        case streamEnd
        /// Nothing more can happen until more input is supplied.
        case needsInput
        /// The data is not valid deflate; the associated value is zlib's reason.
        case corrupt(String)
        case outOfMemory
    }

    private let stream: UnsafeMutablePointer<z_stream>

    init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = inflateInit2_(stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard result == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ZipError(
                .io, "Cannot start zlib's inflate (error \(result)); the system may be out of memory.")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compressed bytes handed to zlib and not yet consumed.
    var availableInput: Int { Int(stream.pointee.avail_in) }

    /// Compressed bytes consumed since the start of the stream.
    var totalInput: UInt64 { UInt64(stream.pointee.total_in) }

    /// Hands zlib the next compressed bytes (at most 4 GiB); `input` must stay valid until they
    /// are consumed.
    func setInput(_ input: UnsafeMutableRawBufferPointer) {
        setInput(UnsafeRawBufferPointer(input))
    }

    /// Hands zlib the next compressed bytes (at most 4 GiB), which it only reads; `input` must
    /// stay valid until they are consumed.
    func setInput(_ input: UnsafeRawBufferPointer) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
    }

    /// Drops any input not yet consumed, so no pointer into it outlives the caller's buffer.
    func clearInput() {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
    }

    /// Starts a new deflate stream, keeping the memory zlib allocated for the last one.
    /// - Returns: false if zlib refused, which only a damaged stream state causes.
    func reset() -> Bool {
        inflateReset(stream) == Z_OK
    }

    /// Inflates into `output` (at most 4 GiB), returning how it went and how many bytes it wrote.
    func inflate(into output: UnsafeMutableRawBufferPointer) -> (status: Status, written: Int) {
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(output.count)
        let result = CZlib.inflate(stream, Z_NO_FLUSH)
        let written = output.count - Int(stream.pointee.avail_out)
        stream.pointee.next_out = nil
        stream.pointee.avail_out = 0
        switch result {
        case Z_OK: return (.progress, written)
        case Z_STREAM_END: return (.streamEnd, written)
        case Z_BUF_ERROR: return (.needsInput, written)
        case Z_MEM_ERROR: return (.outOfMemory, written)
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
            return (.corrupt(reason), written)
        }
    }
}
