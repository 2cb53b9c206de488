/// A file's bytes (one FIT file, or several chained) and what they hold.
struct FITEncodedFile {
    var bytes: [UInt8] = []
    var written: FITWrittenFile

    init(kind: FITFileKind) { written = FITWrittenFile(kind: kind) }

    /// Appends a finished FIT file: a second one makes this a chained file.
    mutating func append(_ encoder: FITFileEncoder) {
        let fileBytes = encoder.finished()
        if !bytes.isEmpty { written.fitFiles += 1 }
        bytes += fileBytes
        written.bytes = bytes.count
        written.messages.merge(encoder.messages, uniquingKeysWith: +)
    }
}
