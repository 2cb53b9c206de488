import CZlib

/// Decompresses a `Content-Encoding: gzip` body (what Health Auto Export may send) as it
/// arrives, handing on a bounded chunk at a time and refusing to produce more than a limit, so a
/// small bomb cannot exhaust memory (or the disk it is spooled to).
public final class GzipBody {
    public enum Failure: Error, Equatable {
        case corrupt(String)
        case tooLarge
    }

    /// Bytes handed on at most per call of `output`.
    static let chunkBytes = 1 << 16

    /// zlib's state points back at its stream: the stream must not move.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let limit: Int
    private var chunk = [UInt8](repeating: 0, count: chunkBytes)
    private var produced = 0
    private var fed = false
    private var ended = false

    /// - Parameter limit: the most bytes the body may decompress to.
    public init(limit: Int) throws(Failure) {
        self.limit = limit
        stream.initialize(to: z_stream())
        // 15 + 16: a gzip wrapper, the largest window.
        guard inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw .corrupt("out of memory")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decompresses the next bytes of the body, handing on what they decode to.
    /// - Throws: `Failure`, or what `output` throws.
    public func feed(_ bytes: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !bytes.isEmpty else { return }
        fed = true
        guard !ended else { throw Failure.corrupt("bytes follow the end of the gzip stream") }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        repeat {
            let (status, count) = chunk.withUnsafeMutableBufferPointer { target in
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                let status = inflate(stream, Z_NO_FLUSH)
                return (status, target.count - Int(stream.pointee.avail_out))
            }
            guard count <= limit - produced else { throw Failure.tooLarge }
            produced += count
            if count > 0 { try chunk.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } }
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                ended = true
                guard stream.pointee.avail_in == 0 else {
                    throw Failure.corrupt("bytes follow the end of the gzip stream")
                }
                return
            case Z_BUF_ERROR:
                // No progress without more input: the next bytes of the body carry on.
                return
            default:
                throw Failure.corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "inflate failed (\(status))")
            }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
    }

    /// The body's end: the gzip stream must have ended.
    public func finish() throws(Failure) {
        guard fed else { throw .corrupt("the body is empty") }
        guard ended else { throw .corrupt("the gzip stream is truncated") }
    }

    /// A whole body at once.
    public static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let body = try GzipBody(limit: limit)
        var output: [UInt8] = []
        do {
            try input.withUnsafeBytes { try body.feed($0) { output += $0 } }
        } catch let failure as Failure {
            throw failure
        } catch {
            // `output` above throws nothing.
            throw .corrupt("\(error)")
        }
        try body.finish()
        return output
    }
}
