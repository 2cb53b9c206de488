/// The files of one export, wherever they are: inside `export.zip`, or in an unzipped folder
/// (which is also where a bare `export.xml` lives).
protocol ExportFiles: AnyObject {
    /// The main file's name as found (it is localized: `export.xml`, `exportar.xml`, `导出.xml`).
    var mainName: String { get }
    /// Its size in bytes, when known before reading.
    var mainSize: Int64? { get }
    /// Streams the main file's bytes.
    func readMain(into consume: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Another file of the export by its path relative to the export's folder
    /// (`workout-routes/route_….gpx`), or `nil` when the export does not have it.
    func readFile(_ relativePath: String) throws -> [UInt8]?
    /// Relative paths of the ECG recordings (`electrocardiograms/ecg_….csv`).
    var electrocardiograms: [String] { get }
}

extension ExportFiles {
    /// `/workout-routes/x.gpx` and `workout-routes/x.gpx` name the same file.
    static func relative(_ path: String) -> String {
        String(path.drop { $0 == "/" })
    }
}
