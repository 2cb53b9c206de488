import HealthETLTestSupport
import Testing

/// The shapes a user hands `ExportQuirksFixture` to the importer in: the zip (stored, or deflated
/// as the Health app writes it), the unzipped folder, or the main file inside that folder.
enum ExportQuirksForm: CaseIterable, Sendable, CustomTestStringConvertible {
    case storedZip, deflatedZip, folder, mainFile

    var testDescription: String {
        switch self {
        case .storedZip: "export.zip, stored"
        case .deflatedZip: "export.zip, deflated"
        case .folder: "unzipped folder"
        case .mainFile: "导出.xml in the unzipped folder"
        }
    }

    /// Writes the fixture in this form into `directory` and returns the path to import.
    func write(in directory: TemporaryDirectory) throws -> String {
        switch self {
        case .storedZip:
            try ExportQuirksFixture.writeZip(to: directory.child("export.zip"))
            return directory.child("export.zip")
        case .deflatedZip:
            try ExportQuirksFixture.writeZip(
                to: directory.child("export.zip"), deflate: ZipTestDeflater.compress)
            return directory.child("export.zip")
        case .folder:
            return try ExportQuirksFixture.writeFolder(in: directory.path)
        case .mainFile:
            return try ExportQuirksFixture.writeFolder(in: directory.path) + "/"
                + ExportQuirksFixture.mainFileName
        }
    }
}
