import Foundation
import Synthetic

/// `simulate --export apple-health PATH`: the generator's export, as a zip or a bare export.xml.
enum AppleExportWriting {
    static func write(to path: String, records: Int, seed: UInt64) throws -> AppleExportSummary {
        let zip = path.hasSuffix(".zip")
        let xml = zip ? path + ".export.xml.partial" : path
        defer { if zip { try? FileManager.default.removeItem(atPath: xml) } }
        let options = AppleExportOptions(records: records, seed: seed, out: xml, zipPath: zip ? path : nil)
        return try AppleExportGenerator(options: options).run()
    }
}
