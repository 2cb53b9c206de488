/// What an entry's name says about it, whichever record the name came from: the central
/// directory (`ZipEntry`) or a local header met while streaming (`ZipStreamEntry`).
enum ZipEntryName {
    /// True for absolute paths, "..", backslash-separated parent refs, drive letters.
    ///
    /// Such a name must never become a path on disk as-is. A NUL byte also counts, since C
    /// APIs would silently cut the name there.
    static func isUnsafePath(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        if first == "/" || first == "\\" || name.unicodeScalars.contains("\0") { return true }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].isASCII,
            scalars[0].properties.isAlphabetic
        {
            return true
        }
        return components(of: name).contains("..")
    }

    /// True for `__MACOSX/` entries and AppleDouble `._` files, which Finder adds when zipping.
    static func isMacMetadata(_ name: String) -> Bool {
        let components = components(of: name)
        if components.first == "__MACOSX" { return true }
        let last = components.last(where: { !$0.isEmpty }) ?? ""
        return last.hasPrefix("._")
    }

    /// The name split at both separators, since archives made on Windows may use backslashes.
    private static func components(of name: String) -> [Substring] {
        name.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "/" || $0 == "\\" })
    }
}
