/// Why a ZIP archive or one of its entries cannot be read.
///
/// `message` is written for the person running the import: it says what is wrong, where (the
/// archive, the entry and the byte offset) and what to do next.
public struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No end-of-central-directory record: the file is not a ZIP archive at all.
        case notAZip
        /// The file ends before data the archive's own records point at.
        case truncated
        /// The central directory or its end records are inconsistent.
        case corruptDirectory
        /// The entry is compressed with a method other than stored (0) or deflate (8).
        case unsupportedMethod
        /// The entry is encrypted.
        case encrypted
        /// The entry cannot be read front to back (`ZipStreamReader`): it is stored uncompressed
        /// with its size only in the data descriptor after its data, so nothing says where it ends.
        case notStreamable
        /// Two entries claim the same bytes of the file (the overlapping-entry zip bomb).
        case overlappingEntries
        /// The entry's data does not produce exactly its declared uncompressed size.
        case sizeMismatch
        /// The entry's data does not match its declared CRC-32.
        case crcMismatch
        /// The entry exceeds the size or compression-ratio budget of `ZipLimits`.
        case compressionBomb
        /// The archive has more entries than `ZipLimits.maxEntries`.
        case tooManyEntries
        /// The compressed data itself is damaged, or the local header is missing.
        case corruptData
        /// The operating system refused to open or read the file.
        case io
    }

    public let kind: Kind
    /// The name of the entry concerned, as stored in the archive, when one is.
    public let entry: String?
    public let message: String

    public var description: String { message }

    init(_ kind: Kind, entry: String? = nil, _ message: String) {
        self.kind = kind
        self.entry = entry
        self.message = message
    }
}

extension ZipError {
    /// The next step for an archive the Health app should have written intact.
    static let reexportAdvice =
        "Re-export from the Health app (\(healthAppExportSteps)) and import the new export.zip."
    /// The same advice as a clause, to follow "or" or "if … then".
    static let reexportClause = "re-export from the Health app (\(healthAppExportSteps))"
    private static let healthAppExportSteps = "Profile → Export All Health Data"
}

extension ZipError {
    /// An error about one entry: "'archive', entry 'name': problem. advice".
    static func entry(
        _ kind: Kind, _ entry: ZipEntry, in path: String, _ problem: String, advice: String = reexportAdvice
    ) -> ZipError {
        ZipError(kind, entry: entry.name, "'\(path)', entry '\(entry.name)': \(problem). \(advice)")
    }
}
