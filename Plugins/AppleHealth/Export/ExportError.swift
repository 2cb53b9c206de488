/// Why an export could not be read at all. Each message says what to do next.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notAnExport(path: String, detail: String)
    case compressedXML(path: String)
    case sideFileTooLarge(path: String, bytes: UInt64)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .notAnExport(let path, let detail):
            return "\(path) is not an Apple Health export (\(detail)). Pass export.zip as the Health app"
                + " wrote it, its export.xml, or the unzipped apple_health_export folder"
        case .compressedXML(let path):
            return "\(path) is gzip-compressed; healthetl does not decompress files behind your back."
                + " Run gunzip on it first, or pass the original export.zip"
        case .sideFileTooLarge(let path, let bytes):
            return "\(path) is \(bytes) bytes, far larger than any route or ECG file; it was skipped"
        }
    }
}
