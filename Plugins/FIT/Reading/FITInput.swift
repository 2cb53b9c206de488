import Foundation
import HealthETLCore
import HealthETLZip

/// What a `fit` input holds, as units in a fixed order: a `.fit` or `.fit.gz` file, the files of
/// a folder (recursively, by path: a copied `GARMIN/` folder), or the entries of a zip (by name):
/// Garmin Connect's export, whose FIT files sit in zips inside the zip, and Strava's, whose sit
/// gzipped under `activities/`. Nested archives are streamed, never extracted. Files that are no
/// FIT file are counted by kind as `not_read`.
enum FITInput {
    /// Archives inside archives deeper than this are refused (a zip of zips to exhaust the stack).
    static let maximumNesting = 8
    /// The decompressed size a `.fit.gz` may reach: well past any real FIT file.
    static let maximumGzipBytes = 256 << 20

    enum Kind: Equatable {
        case fit, gzippedFIT, zip
        case other(String)

        init(name: String) {
            let lower = name.lowercased()
            if lower.hasSuffix(".fit") {
                self = .fit
            } else if lower.hasSuffix(".fit.gz") {
                self = .gzippedFIT
            } else if lower.hasSuffix(".zip") {
                self = .zip
            } else {
                let file = lower.split(separator: "/").last.map(String.init) ?? lower
                let parts = file.split(separator: ".")
                self = .other(parts.count > 1 ? String(parts.last!) : "no_extension")
            }
        }
    }

    /// The units of `path`, and the files that are no FIT file, by kind.
    static func units(at path: String) throws -> (units: [FITInputUnit], notRead: [String: Int]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FITInputError(path: path, reason: "there is no such file or folder")
        }
        if isDirectory.boolValue { return try folder(path) }
        if let archive = try? ZipArchive(path: path) { return zip(archive) }
        return ([file(path, kind: Kind(name: path) == .gzippedFIT ? .gzippedFIT : .fit)], [:])
    }

    /// Whether `path` holds FIT, by content: a file that starts with a FIT header (gunzipped
    /// for `.fit.gz`), or a folder or zip with such a file, or with a zip whose first entry is one.
    static func recognize(_ path: String) -> SourceRecognition {
        guard let (units, _) = try? units(at: path) else { return .notRecognized(reason: "cannot be read") }
        for unit in units.prefix(64) where unit.probe() { return .recognized }
        return .notRecognized(reason: "no FIT file (no \".FIT\" header) in it")
    }

    /// Bytes a unit is probed by.
    static let probeBytes = 4_096

    /// Whether `head`, the first bytes of a file of `kind`, are FIT's.
    static func looksLikeFIT(_ head: [UInt8], kind: Kind) -> Bool {
        switch kind {
        case .fit:
            return head.count >= 12 && Array(head[8..<12]) == Array(".FIT".utf8)
        case .gzippedFIT:
            var unzipped: [UInt8] = []
            if let gzip = try? GzipStream(limit: probeBytes * 64) {
                try? head.withUnsafeBytes { bytes in try gzip.feed(bytes) { unzipped += $0 } }
            }
            return looksLikeFIT(unzipped, kind: .fit)
        case .zip:
            // A local file header (PK 3 4) whose name, at byte 30, is a FIT file or a zip.
            guard head.count >= 30, head[0..<4] == [0x50, 0x4B, 0x03, 0x04] else { return false }
            let length = Int(head[26]) | Int(head[27]) << 8
            guard head.count >= 30 + length else { return false }
            let name = String(decoding: head[30..<(30 + length)], as: UTF8.self)
            if case .other = Kind(name: name) { return false }
            return true
        case .other:
            return false
        }
    }

    private static func folder(_ path: String) throws -> (units: [FITInputUnit], notRead: [String: Int]) {
        guard let walker = FileManager.default.enumerator(atPath: path) else {
            throw FITInputError(path: path, reason: "the folder cannot be read")
        }
        var names: [String] = []
        var notRead: [String: Int] = [:]
        while let name = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = path + "/" + name
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                !name.split(separator: "/").contains(where: { $0.hasPrefix(".") })
            else { continue }
            if case .other(let kind) = Kind(name: name) { notRead[kind, default: 0] += 1 } else { names.append(name) }
        }
        let units = names.sorted().map { name -> FITInputUnit in
            let full = path + "/" + name
            switch Kind(name: name) {
            case .zip:
                guard let archive = try? ZipArchive(path: full) else { return file(full, kind: .fit) }
                return FITInputUnit(
                    name: full, size: archive.fileSize, probe: { zip(archive).units.contains { $0.probe() } }
                ) { session in
                    try readZip(archive, depth: 1, into: session)
                }
            case let kind: return file(full, kind: kind)
            }
        }
        return (units, notRead)
    }

    private static func zip(_ archive: ZipArchive) -> (units: [FITInputUnit], notRead: [String: Int]) {
        var notRead: [String: Int] = [:]
        var units: [FITInputUnit] = []
        for entry in archive.entries.sorted(by: { $0.name < $1.name })
        where !entry.isDirectory && !entry.isMacMetadata && !entry.isSymbolicLink {
            let kind = Kind(name: entry.name)
            if case .other(let other) = kind {
                notRead[other, default: 0] += 1
                continue
            }
            let name = archive.path + "!" + entry.name
            units.append(
                FITInputUnit(
                    name: name, size: entry.compressedSize,
                    probe: { looksLikeFIT((try? archive.prefix(of: entry, count: probeBytes)) ?? [], kind: kind) }
                ) { session in
                    try readStream(name: name, kind: kind, depth: 1, into: session) { consume in
                        try archive.read(entry, into: consume)
                    }
                })
        }
        return (units, notRead)
    }

    private static func file(_ path: String, kind: Kind) -> FITInputUnit {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
        let probe = {
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            return looksLikeFIT([UInt8]((try? handle.read(upToCount: probeBytes)) ?? Data()), kind: kind)
        }
        return FITInputUnit(name: path, size: size, probe: probe) { session in
            try readStream(name: path, kind: kind, depth: 0, into: session) { consume in
                guard let handle = FileHandle(forReadingAtPath: path) else {
                    throw FITInputError(path: path, reason: "the file cannot be read")
                }
                defer { try? handle.close() }
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try chunk.withUnsafeBytes { try consume($0) }
                }
            }
        }
    }

    private static func readZip(_ archive: ZipArchive, depth: Int, into session: FITReadSession) throws {
        for entry in archive.entries.sorted(by: { $0.name < $1.name })
        where !entry.isDirectory && !entry.isMacMetadata && !entry.isSymbolicLink {
            let name = archive.path + "!" + entry.name
            try readStream(name: name, kind: Kind(name: entry.name), depth: depth, into: session) { consume in
                try archive.read(entry, into: consume)
            }
        }
    }

    /// Streams one file of the input into the session by its kind: FIT bytes as they are, a
    /// `.fit.gz` through gzip, a zip entry by entry.
    static func readStream(
        name: String, kind: Kind, depth: Int, into session: FITReadSession,
        bytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        switch kind {
        case .fit:
            session.beginFile(name)
            try bytes { try session.bytes($0) }
            try session.endFile()
        case .gzippedFIT:
            session.beginFile(name)
            let gzip = try GzipStream(limit: maximumGzipBytes)
            do {
                try bytes { chunk in try gzip.feed(chunk) { try session.bytes($0) } }
                try gzip.finish()
            } catch let failure as GzipStream.Failure {
                session.problem("\(name): \(failure) — the rest of this file is not read")
            }
            try session.endFile()
        case .zip:
            guard depth < maximumNesting else {
                session.problem("\(name): a zip nested \(depth + 1) deep is not read (at most \(maximumNesting))")
                return
            }
            try readNestedZip(name: name, depth: depth + 1, into: session, bytes: bytes)
        case .other(let other):
            session.notRead(kind: other)
        }
    }
}

extension FITInput {
    /// A zip within the input, streamed entry by entry.
    static func readNestedZip(
        name: String, depth: Int, into session: FITReadSession,
        bytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let zip = FITNestedZip(name: name, depth: depth, session: session)
        try bytes { try zip.feed($0) }
        try zip.finish()
    }
}

extension FITInput {
    /// When the newest file of `path` (itself, or a file below it) was last written.
    static func newestModification(at path: String) -> Instant? {
        let manager = FileManager.default
        var newest = (try? manager.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
            let walker = manager.enumerator(atPath: path)
        {
            newest = nil
            while walker.nextObject() != nil {
                if let file = walker.fileAttributes, file[.type] as? FileAttributeType == .typeRegular,
                    let date = file[.modificationDate] as? Date, date > (newest ?? .distantPast)
                {
                    newest = date
                }
            }
        }
        return newest.map { Instant(millisecondsSinceEpoch: Int64(($0.timeIntervalSince1970 * 1000).rounded(.down))) }
    }
}
