import Foundation
import HealthETLCore

@testable import FIT

/// What the `fit` adapter hands on for an input, gathered for the checks.
struct FITReadResult: SourceEventHandler {
    var records: [RawRecord] = []
    var workouts: [Workout] = []
    var checkpoints: [Int64] = []
    var report = SourceReadReport(complete: true)

    mutating func receive(_ event: SourceEvent) throws {
        switch event {
        case .record(let record, _): records.append(record)
        case .workout(let workout, _): workouts.append(workout)
        case .checkpoint(let cursor): checkpoints.append(cursor.position)
        default: break
        }
    }

    /// Records of the catalog identifier `fit:message.field`, any sport.
    func records(_ message: String, _ field: String) -> [RawRecord] {
        let prefix = "fit:\(message).\(field)"
        return records.filter { $0.type == prefix || $0.type.hasPrefix(prefix + "@") }
    }

    static func read(
        _ path: String, resumeFrom: [StreamCursor] = [], readAt: Instant? = nil,
        settings: [String: PluginSettings.Value] = [:]
    ) throws -> FITReadResult {
        var result = FITReadResult()
        let input = SourceInput(
            path: path, resumeFrom: resumeFrom, readAt: readAt ?? Instant(secondsSinceEpoch: 1_900_000_000),
            settings: PluginSettings(section: "sources.fit", values: settings))
        result.report = try FITAdapter().read(input, into: &result)
        return result
    }

    /// Data messages by profile name and FIT files, as the decoder alone reads a file.
    static func messages(in bytes: [UInt8]) throws -> (messages: [String: Int], files: Int, damage: [String]) {
        var counts: [String: Int] = [:]
        var damage: [String] = []
        var splitter = FITFileSplitter()
        let decode = { (file: FITFileBytes) throws in
            var decoder = FITMessageDecoder()
            do {
                try file.withData { data in
                    try decoder.decode(data, base: file.dataStart) { message, _ in
                        counts[FITMessageNames.name(of: message.globalNumber), default: 0] += 1
                    }
                }
            } catch let error as FITDamage {
                damage.append(error.description)
            }
            if file.integrity != .intact { damage.append("\(file.integrity)") }
        }
        try bytes.withUnsafeBytes { try splitter.feed($0, emit: decode) }
        try splitter.finish(emit: decode)
        return (counts, splitter.files, damage)
    }
}

extension FITReadResult {
    /// Reads `bytes` as a `.fit` file in a fresh temporary folder.
    static func read(bytes: [UInt8], name: String = "test.fit") throws -> FITReadResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try read(path)
    }
}
