/// Feeds the main file to the parser, passing over the committed stretch of a resumed read:
/// bytes before `prologueEnd` are parsed, those up to `at` only counted (their line feeds keep
/// reported line numbers right), and the rest parsed again. Deflate cannot seek, so a zipped
/// file is still inflated across the stretch, but nothing in it is parsed.
struct ResumingReader {
    private let resume: ResumePoint?
    private var offset: Int64 = 0
    private var skippedNewlines = 0
    private var jumped = false

    init(resume: ResumePoint?) {
        self.resume = resume
    }

    /// - Parameter didJump: called once, when the stretch is passed over, with where parsing
    ///   goes on.
    mutating func feed(
        _ chunk: UnsafeRawBufferPointer, to parser: XMLStreamParser, didJump: (Int64) throws -> Void
    ) throws {
        let start = offset
        offset += Int64(chunk.count)
        guard let resume, !jumped else { return try parser.feed(chunk) }
        let end = offset
        // Up to the end of the prologue: parsed.
        if start < resume.prologueEnd {
            let count = Int(min(end, resume.prologueEnd) - start)
            try parser.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        // The committed stretch: counted, not parsed.
        let skipFrom = Int(max(start, resume.prologueEnd) - start)
        let skipTo = Int(min(max(end, resume.prologueEnd), resume.at) - start)
        if skipFrom < skipTo {
            skippedNewlines += Self.lineFeeds(in: UnsafeRawBufferPointer(rebasing: chunk[skipFrom..<skipTo]))
        }
        guard end > resume.at || (end == resume.at && end > start) else { return }
        parser.skip(resume.at - resume.prologueEnd, newlines: skippedNewlines)
        jumped = true
        try didJump(resume.at)
        if end > resume.at {
            try parser.feed(UnsafeRawBufferPointer(rebasing: chunk[Int(resume.at - start)...]))
        }
    }

    private static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return count
    }
}
