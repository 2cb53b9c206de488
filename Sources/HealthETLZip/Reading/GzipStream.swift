import CZlib

/// Decompresses a gzip stream (RFC 1952) as it arrives, handing on a bounded chunk at a time and
/// refusing to produce more than a limit, so a small bomb cannot exhaust memory (or the disk it
/// is spooled to).
///
/// What arrives may be a `Content-Encoding: gzip` body (as Health Auto Export may send), a
/// `.fit.gz` file, or the data of a ZIP entry (`ZipStreamEvent.data`). Members concatenated back
/// to back, as `cat a.gz b.gz` makes and RFC 1952 allows, decompress one after the other; the
/// limit counts them all. Anything else after a member, zero padding included, is refused.
///
/// Not `Sendable`: it owns zlib's state and is meant to be confined to one thread.
public final class GzipStream {
    public enum Failure: Error, Sendable, Equatable {
        case corrupt(String)
        case tooLarge
    }

    /// Bytes handed on at most per call of `output`.
    public static let chunkBytes = 1 << 16

    /// zlib's state points back at its stream: the stream must not move.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let limit: Int
    private var chunk = [UInt8](repeating: 0, count: chunkBytes)
    private var produced = 0
    private var fed = false
    /// Whether the last member read has ended, so the stream may end here too.
    private var ended = false
    /// Members begun so far.
    private var members = 0
    /// Bytes the current member has decompressed to.
    private var memberOutput = 0

    /// - Parameter limit: the most bytes the stream may decompress to, all members together.
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

    /// Decompresses the next bytes of the stream, handing on what they decode to.
    /// - Throws: `Failure`, or what `output` throws.
    public func feed(_ bytes: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !bytes.isEmpty else { return }
        if !fed || ended { try beginMember() }
        fed = true
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
            memberOutput += count
            if count > 0 { try chunk.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } }
            switch status {
            case Z_OK:
                continue
            case Z_STREAM_END:
                ended = true
                // What is left must be the next member.
                guard stream.pointee.avail_in == 0 else {
                    try beginMember()
                    continue
                }
                return
            case Z_BUF_ERROR:
                // No progress without more input: the next bytes of the stream carry on.
                return
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "inflate failed (\(status))"
                if members > 1 && memberOutput == 0 {
                    throw Failure.corrupt("bytes follow the end of the gzip stream (\(reason))")
                }
                throw Failure.corrupt(reason)
            }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
    }

    /// The stream's end: its last member must have ended.
    public func finish() throws(Failure) {
        guard fed else { throw .corrupt("the gzip stream is empty") }
        guard ended else { throw .corrupt("the gzip stream is truncated") }
    }

    /// A whole stream at once.
    public static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let stream = try GzipStream(limit: limit)
        var output: [UInt8] = []
        do {
            try input.withUnsafeBytes { try stream.feed($0) { output += $0 } }
        } catch let failure as Failure {
            throw failure
        } catch {
            // `output` above throws nothing.
            throw .corrupt("\(error)")
        }
        try stream.finish()
        return output
    }

    /// Starts reading a member: the first, or the next after one that ended.
    private func beginMember() throws(Failure) {
        if members > 0 {
            guard inflateReset(stream) == Z_OK else { throw .corrupt("zlib could not start the next member") }
        }
        members += 1
        memberOutput = 0
        ended = false
    }
}
