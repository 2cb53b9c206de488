import HealthETLZip

/// What locating an export.zip found: its checked central directory and the entry holding the
/// main file, both costly to find again (a directory parse, and a sniff of each XML entry's start).
struct LocatedArchive: Sendable {
    let path: String
    let directory: ZipDirectory
    let main: ZipEntry
}
