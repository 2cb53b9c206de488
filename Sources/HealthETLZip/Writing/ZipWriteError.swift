/// Why an archive, or a file written alongside it, could not be written: what failed and where,
/// worded for the person who asked for it.
public struct ZipWriteError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
