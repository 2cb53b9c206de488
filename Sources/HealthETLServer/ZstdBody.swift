import CZstd

/// Decompresses a `Content-Encoding: zstd` body, refusing to produce more than a limit, so a
/// small bomb cannot exhaust memory.
public enum ZstdBody {
    public enum Failure: Error, Equatable {
        case corrupt(String)
        case tooLarge
    }

    public static func decompress(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        guard !input.isEmpty else { throw .corrupt("the body is empty") }
        guard let stream = ZSTD_createDStream() else { throw .corrupt("out of memory") }
        defer { ZSTD_freeDStream(stream) }
        // Refuse frames that ask for a window over 128 MiB.
        ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, 27)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 17)
        var pending = 0
        var failure: Failure?
        input.withUnsafeBytes { source in
            var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            while true {
                let produced = chunk.withUnsafeMutableBytes { target -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                    pending = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    return outBuffer.pos
                }
                if ZSTD_isError(pending) != 0 {
                    failure = .corrupt(String(cString: ZSTD_getErrorName(pending)))
                    return
                }
                guard output.count + produced <= limit else {
                    failure = .tooLarge
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                // A full chunk may leave output pending even when all input is consumed.
                if inBuffer.pos == inBuffer.size && produced < chunk.count { return }
            }
        }
        if let failure { throw failure }
        // Non-zero means the last frame did not end: the body was cut short.
        guard pending == 0 else { throw .corrupt("the zstd frame is truncated") }
        return output
    }
}
