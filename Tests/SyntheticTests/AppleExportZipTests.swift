import Foundation
import HealthETLTestSupport
import Testing

@testable import Synthetic

/// The generator streams export.xml and the GPX routes straight into export.zip.
@Suite struct AppleExportZipTests {
    static let xmlName = "apple_health_export/export.xml"
    static let routePrefix = "apple_health_export/workout-routes/"

    @Test func sameSeedWritesIdenticalZips() throws {
        let directory = TemporaryDirectory("apple-export-zip")
        let first = directory.child("first.zip")
        let second = directory.child("second.zip")
        _ = try AppleExportGenerator(options: AppleExportOptions(records: 8000, seed: 7, zipPath: first))
            .run()
        _ = try AppleExportGenerator(options: AppleExportOptions(records: 8000, seed: 7, zipPath: second))
            .run()
        let a = try Data(contentsOf: URL(fileURLWithPath: first))
        let b = try Data(contentsOf: URL(fileURLWithPath: second))
        #expect(a == b)
        // Nothing but the two archives: no partial files, no staged routes.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "first.zip", "second.zip",
            ])
    }

    @Test func zipHoldsExportXMLFirstThenRoutesByName() throws {
        let directory = TemporaryDirectory("apple-export-zip")
        let path = directory.child("export.zip")
        let summary = try AppleExportGenerator(
            options: AppleExportOptions(records: 8000, seed: 7, zipPath: path)
        ).run()

        let entries = try ZipReaders.project(path)
        #expect(entries.first?.name == Self.xmlName)
        let routes = entries.dropFirst().map(\.name)
        #expect(!routes.isEmpty)
        #expect(routes.allSatisfy { $0.hasPrefix(Self.routePrefix + "route_") && $0.hasSuffix(".gpx") })
        #expect(routes == routes.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(summary.routes == routes.count)
        #expect(summary.workouts == routes.count)

        let xml = try #require(entries.first?.bytes)
        #expect(Int64(xml.count) == summary.bytes)
        #expect(String(decoding: xml.prefix(200), as: UTF8.self).hasPrefix("<?xml"))
        #expect(String(decoding: xml.suffix(20), as: UTF8.self).contains("</HealthData>"))
        #expect(summary.routeBytes == Int64(entries.dropFirst().reduce(0) { $0 + $1.bytes.count }))
        #expect(summary.zipBytes == Int64(try fileSize(path)))
        #expect(summary.zipPath == path)
        #expect(summary.xmlPath == nil)
        #expect(try permissions(path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["export.zip"])

        // python3's zipfile agrees, CRCs included.
        let python = try ZipReaders.python(path)
        #expect(python.map(\.entry.name) == entries.map(\.name))
        #expect(python.first?.bytes == xml)
    }

    @Test func bareFilesAndTheZipHoldTheSameBytes() throws {
        let directory = TemporaryDirectory("apple-export-zip")
        let xmlPath = directory.child("export.xml")
        let zipPath = directory.child("export.zip")
        let routes = directory.child("routes")
        let summary = try AppleExportGenerator(
            options: AppleExportOptions(
                records: 2000, seed: 3, out: xmlPath, zipPath: zipPath, routesDirectory: routes)
        ).run()

        let entries = try ZipReaders.project(zipPath)
        let xml = try [UInt8](Data(contentsOf: URL(fileURLWithPath: xmlPath)))
        #expect(entries.first?.bytes == xml)
        #expect(summary.xmlPath == xmlPath)
        #expect(try permissions(xmlPath) == 0o600)

        let files = try FileManager.default.contentsOfDirectory(atPath: routes).sorted()
        #expect(files.map { Self.routePrefix + $0 } == entries.dropFirst().map(\.name))
        for (file, entry) in zip(files, entries.dropFirst()) {
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: routes + "/" + file))) == entry.bytes)
            #expect(try permissions(routes + "/" + file) == 0o600)
        }
    }

    @Test func bareExportXMLAloneWritesNoZip() throws {
        let directory = TemporaryDirectory("apple-export-zip")
        let xmlPath = directory.child("export.xml")
        let summary = try AppleExportGenerator(
            options: AppleExportOptions(records: 500, seed: 1, out: xmlPath)
        ).run()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["export.xml"])
        #expect(summary.zipPath == nil)
        #expect(summary.routes == 0)
        #expect(Int64(try fileSize(xmlPath)) == summary.bytes)
        #expect(!summary.json.contains("\"zip\""))
        #expect(summary.json.contains("\"xml\":\"\(xmlPath)\""))
    }

    @Test func nothingToWriteIsAnError() {
        #expect(throws: (any Error).self) {
            _ = try AppleExportGenerator(options: AppleExportOptions(records: 500, seed: 1)).run()
        }
    }

    @Test func failedZipLeavesNoPartialFile() throws {
        let directory = TemporaryDirectory("apple-export-zip")
        // The xml path cannot be created, after the zip writer has started.
        let zipPath = directory.child("export.zip")
        let options = AppleExportOptions(
            records: 500, seed: 1, out: directory.child("missing/export.xml"), zipPath: zipPath)
        #expect(throws: (any Error).self) { _ = try AppleExportGenerator(options: options).run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
