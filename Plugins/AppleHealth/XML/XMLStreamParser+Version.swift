import CLibXML2

extension XMLStreamParser {
    /// The libxml2 this process runs against, as `major.minor.patch`, for `--version`.
    public static var libraryVersion: String {
        // libxml2 reports 20914 for 2.9.14.
        let number = Int(String(cString: __xmlParserVersion().pointee!)) ?? 0
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
