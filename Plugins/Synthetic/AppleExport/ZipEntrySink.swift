import HealthETLZip

/// One entry of a `ZipWriter` as a `ByteSink`: begun when created, ended when closed, so a
/// `ByteWriter` can stream straight into the archive.
final class ZipEntrySink: ByteSink {
    private let zip: ZipWriter

    init(zip: ZipWriter, name: String) throws {
        self.zip = zip
        try zip.beginEntry(name)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try zip.write(bytes)
    }

    func close() throws {
        try zip.endEntry()
    }
}
