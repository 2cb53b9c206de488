import Foundation
import HealthETLCore
import HealthETLZip

/// One JSON text of an input: a file given alone, a file of a folder, or an entry of a zip.
struct HAEInputFile {
    /// The name to report: the path, or `zip path!entry`.
    let name: String
    /// Its size in bytes (uncompressed), for progress.
    let size: Int64
    /// Streams its bytes in chunks.
    let read: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

    /// Bytes a file is probed by.
    static let probeBytes = 4_096

    /// The JSON texts of `path` in a fixed order: the file itself, the `.json` files of a folder
    /// (recursively, by path), or the `.json` entries of a zip (by name).
    static func files(at path: String) throws -> [HAEInputFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw HAEInputError.missing(path: path)
        }
        if isDirectory.boolValue { return try folder(path) }
        if let archive = try? ZipArchive(path: path) { return try zip(archive) }
        return [plain(path)]
    }

    /// Whether `path` holds HAE JSON: a file that opens like it, a folder with such a file, or a
    /// zip with such an entry.
    static func recognize(_ path: String) -> SourceRecognition {
        guard let files = try? files(at: path) else { return .notRecognized(reason: "cannot be read") }
        for file in files.prefix(64) where looksLikeHAE((try? file.prefix(probeBytes)) ?? []) {
            return .recognized
        }
        return .notRecognized(reason: "no JSON with Health Auto Export's metrics or workouts")
    }

    /// An object whose first bytes name the `data` envelope or one of HAE's sections.
    static func looksLikeHAE(_ bytes: [UInt8]) -> Bool {
        guard bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "{")
        else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        return HAEDocumentReader.sections.contains { text.contains("\"\($0)\"") }
    }

    func prefix(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        struct Enough: Error {}
        do {
            try read { chunk in
                bytes += chunk.prefix(count - bytes.count)
                if bytes.count >= count { throw Enough() }
            }
        } catch is Enough {}
        return bytes
    }

    private static func plain(_ path: String) -> HAEInputFile {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        return HAEInputFile(name: path, size: size ?? 0) { consume in
            guard let handle = FileHandle(forReadingAtPath: path) else { throw HAEInputError.unreadable(path: path) }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try chunk.withUnsafeBytes { try consume($0) }
            }
        }
    }

    private static func folder(_ path: String) throws -> [HAEInputFile] {
        guard let walker = FileManager.default.enumerator(atPath: path) else {
            throw HAEInputError.unreadable(path: path)
        }
        var names: [String] = []
        while let name = walker.nextObject() as? String {
            if name.lowercased().hasSuffix(".json"), !name.split(separator: "/").contains(where: { $0.hasPrefix(".") })
            {
                names.append(name)
            }
        }
        return names.sorted().map { plain(path + "/" + $0) }
    }

    private static func zip(_ archive: ZipArchive) throws -> [HAEInputFile] {
        archive.entries
            .filter {
                !$0.isDirectory && !$0.isMacMetadata && !$0.isSymbolicLink && $0.name.lowercased().hasSuffix(".json")
            }
            .sorted { $0.name < $1.name }
            .map { entry in
                HAEInputFile(name: archive.path + "!" + entry.name, size: Int64(entry.uncompressedSize)) { consume in
                    try archive.read(entry, into: consume)
                }
            }
    }
}
