/// The files of one export, wherever they are: inside `export.zip`, or in an unzipped folder
/// (which is also where a bare `export.xml` lives).
protocol ExportFiles: AnyObject {
    /// The main file's name as found (it is localized: `export.xml`, `exportar.xml`, `导出.xml`).
    var mainName: String { get }
    /// Its size in bytes, when known before reading.
    var mainSize: Int64? { get }
    /// Streams the main file's bytes.
    func readMain(into consume: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Streams another file of the export, by its path relative to the export's folder
    /// (`workout-routes/route_….gpx`); `false` when the export does not have it.
    /// - Throws: `ExportError.sideFileTooLarge` past `maximumSideFileBytes`, or what reading threw.
    func streamFile(_ relativePath: String, into consume: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    /// Relative paths of the ECG recordings (`electrocardiograms/ecg_….csv`).
    var electrocardiograms: [String] { get }
}

extension ExportFiles {
    /// Another file of the export whole, or `nil` when the export does not have it.
    func readFile(_ relativePath: String) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        guard try streamFile(relativePath, into: { bytes.append(contentsOf: $0) }) else { return nil }
        return bytes
    }

    /// `/workout-routes/x.gpx` and `workout-routes/x.gpx` name the same file.
    static func relative(_ path: String) -> String {
        String(path.drop { $0 == "/" })
    }
}
