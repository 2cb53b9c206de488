import CZlib

/// Decompresses a `Content-Encoding: gzip` body (what Health Auto Export may send), refusing to
/// produce more than a limit, so a small bomb cannot exhaust memory.
public enum GzipBody {
    public enum Failure: Error, Equatable {
        case corrupt(String)
        case tooLarge
    }

    public static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard !input.isEmpty else { throw .corrupt("the body is empty") }
        var stream = z_stream()
        // 15 + 16: a gzip wrapper, the largest window.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("out of memory")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 17)
        var status: Int32 = Z_OK
        var overLimit = false
        var input = input
        let total = input.count
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(total)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    overLimit = true
                    return
                }
                output += chunk[0..<produced]
            } while status == Z_OK
        }
        if overLimit { throw .tooLarge }
        switch status {
        case Z_STREAM_END:
            guard stream.avail_in == 0 else { throw .corrupt("bytes follow the end of the gzip stream") }
            return output
        case Z_BUF_ERROR:
            throw .corrupt("the gzip stream is truncated")
        default:
            throw .corrupt(stream.msg.map { String(cString: $0) } ?? "inflate failed (\(status))")
        }
    }
}
