import Foundation
import HealthETLTestSupport

@testable import HealthETLZip

/// Reads a zip back with independent readers: the project's own (HealthETLZip's ZipArchive),
/// python3's zipfile, and Info-ZIP's `unzip -t` when it is installed.
enum ZipReaders {
    /// What python3's zipfile says about one entry.
    struct PythonEntry: Decodable, Equatable {
        let name: String
        let size: UInt64
        let extractVersion: Int
        let dateTime: [Int]
        let mode: Int
    }

    /// Every entry's name and content, in central directory order, through `ZipArchive`.
    static func project(_ path: String) throws -> [(name: String, bytes: [UInt8])] {
        let archive = try ZipArchive(path: path)
        return try archive.entries.map { entry in
            var bytes: [UInt8] = []
            try archive.read(entry) { bytes.append(contentsOf: $0) }
            return (entry.name, bytes)
        }
    }

    /// Whether the project's reader found a ZIP64 end of central directory record.
    static func projectSeesZip64End(_ path: String) throws -> Bool {
        try ZipEndOfCentralDirectory.locate(in: ZipFileDescriptor(path: path)).isZip64
    }

    /// Runs `testzip()` (every CRC checked) and returns each entry's details and content.
    static func python(_ path: String) throws -> [(entry: PythonEntry, bytes: [UInt8])] {
        let folder = TemporaryDirectory("zip-readers")
        let output = try runPython(path, extractInto: folder.path)
        let entries = try JSONDecoder().decode([PythonEntry].self, from: Data(output.utf8))
        return try entries.enumerated().map { index, entry in
            let data = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/\(index)"))
            return (entry, [UInt8](data))
        }
    }

    /// Runs `testzip()` only, for archives with too many entries to extract one file each.
    static func pythonEntryCount(_ path: String) throws -> Int {
        let output = try runPython(path, extractInto: "-")
        guard let count = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ReaderFailure("python3 printed '\(output)', not an entry count")
        }
        return count
    }

    /// `unzip -t`'s exit status, or nil when unzip is not installed.
    static func unzipTest(_ path: String) throws -> Int32? {
        guard
            let unzip = ["/usr/bin/unzip", "/bin/unzip", "/usr/local/bin/unzip"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return nil }
        return try run(unzip, ["-tqq", path]).status
    }

    private static let pythonScript = """
        import json, os, sys, zipfile
        path, out = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
            if bad is not None:
                sys.exit("bad CRC in " + bad)
            infos = z.infolist()
            if out == "-":
                print(len(infos))
                sys.exit(0)
            for i, info in enumerate(infos):
                with open(os.path.join(out, str(i)), "wb") as f:
                    f.write(z.read(info))
            print(json.dumps([{"name": i.filename, "size": i.file_size, "extractVersion": i.extract_version,
                               "dateTime": list(i.date_time), "mode": i.external_attr >> 16} for i in infos]))
        """

    private static func runPython(_ path: String, extractInto folder: String) throws -> String {
        let result = try run("/usr/bin/env", ["python3", "-c", pythonScript, path, folder])
        guard result.status == 0 else {
            throw ReaderFailure("python3 zipfile rejected \(path) (status \(result.status)): \(result.error)")
        }
        return result.output
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (
        status: Int32, output: String, error: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // Files, not pipes: a chatty child can never block on a full pipe.
        let scratch = TemporaryDirectory("zip-readers")
        let outputPath = scratch.path + "/stdout"
        let errorPath = scratch.path + "/stderr"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, output, error)
    }

    struct ReaderFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
