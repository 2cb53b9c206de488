import Foundation
import HealthETLCore
import HealthETLPipeline
import HealthETLRuntime
import HealthETLSQLite
import HealthETLStore
import HealthETLTestSupport
import HealthETLZip
import Synthetic
import Testing

@testable import HealthConnect

/// The adapter over whole exports the generator writes: the shared conformance suite, the
/// snapshot diff between two exports of one phone (exactly the deleted and edited records
/// change), the rules that keep a partial or trimmed export from deleting anything, and a
/// re-import that adds nothing.
@Suite struct HealthConnectExportTests {
    let directory = TemporaryDirectory("healthetl-hc-export")

    func export(_ name: String, days: Int = 5, previous: String? = nil) throws -> String {
        let path = directory.child(name)
        _ = try HealthConnectExportGenerator(
            options: HealthConnectExportOptions(zipPath: path, days: days, heartRateInterval: 300, previous: previous)
        ).run()
        return path
    }

    func store(_ name: String = "store") throws -> Store {
        try Store(directory: StoreDirectory(path: directory.child(name)))
    }

    func importing(_ path: String, into store: Store) throws -> ImportSummary {
        var run = ArchiveImport()
        run.clock = .system
        return try run.run(path, into: store, catalog: try MetricCatalog.bundled())
    }

    /// Every sample a read of `path` gives, by content id.
    func samples(_ path: String) throws -> [ContentID: Sample] {
        var log = EventLog()
        _ = try HealthConnectAdapter().read(SourceInput(path: path), into: &log)
        let normalizer = Normalizer(catalog: try MetricCatalog.bundled(), now: Instant(millisecondsSinceEpoch: 1 << 42))
        return Dictionary(log.records.compactMap { normalizer.sample(from: $0) }.map { ($0.id, $0) }) { first, _ in
            first
        }
    }

    func sampleIDs(_ path: String) throws -> Set<ContentID> { Set(try samples(path).keys) }

    @Test func aGeneratedExportPassesTheSharedConformanceSuite() throws {
        let path = try export("conformance.zip")
        #expect(HealthConnectAdapter().recognize(SourceInput(path: path)) == .recognized)
        let problems = try SourceConformance.problems(
            of: HealthConnectAdapter(), input: SourceInput(path: path), catalog: MetricCatalog.bundled())
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test func theRegistryFindsItByContentAndAppleDoesNotClaimIt() throws {
        let path = try export("Health Connect.zip")
        let adapter = try PluginRegistry.adapter(for: SourceInput(path: path))
        #expect(type(of: adapter).name == "health_connect")
    }

    @Test func everyRecordIsStoredAndTheCopyIsGone() throws {
        let path = try export("whole.zip")
        let store = try store()
        let summary = try importing(path, into: store)
        #expect(summary.complete)
        #expect(summary.quarantined == 0, "\(summary.quarantinedByReason)")
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        #expect(summary.recordsRead == summary.accepted + summary.flagged + summary.duplicates)
        #expect(summary.accepted == (try sampleIDs(path)).count)
        #expect(summary.workouts > 0)
    }

    @Test func theZipsDatabaseIsCopiedPrivatelyAndRemovedAfterwards() throws {
        let path = try export("copied.zip")
        var file: HealthConnectExportFile? = try HealthConnectExportFile(path: path)
        let copy = try #require(file?.databasePath)
        #expect(copy != path)
        #expect(!copy.hasPrefix(directory.path))
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        file = nil
        #expect(!FileManager.default.fileExists(atPath: copy))
    }

    @Test func aDeadRunsCopyIsRemovedAndALiveOnesKept() throws {
        let dead = directory.child(HealthConnectExportFile.copyPrefix + "2147483646-1.db")
        let live = directory.child(
            HealthConnectExportFile.copyPrefix + "\(ProcessInfo.processInfo.processIdentifier)-2.db")
        let unrelated = directory.child("other-2147483646-1.db")
        for path in [dead, live, unrelated] { _ = FileManager.default.createFile(atPath: path, contents: Data()) }
        HealthConnectExportFile.removeStaleCopies(in: directory.path)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: unrelated))
    }

    @Test func theSameExportAgainAddsNothing() throws {
        let path = try export("again.zip")
        let store = try store()
        let first = try importing(path, into: store)
        let second = try importing(path, into: store)
        #expect(first.accepted > 0)
        #expect(second.accepted == 0)
        #expect(second.tombstones == 0)
        var fromStart = ArchiveImport()
        fromStart.fromStart = true
        let whole = try fromStart.run(path, into: store, catalog: try MetricCatalog.bundled())
        #expect(whole.accepted == 0)
        #expect(whole.duplicates == whole.recordsRead)
        #expect(whole.tombstones == 0)
    }

    @Test func aLaterSnapshotChangesExactlyTheDeletedAndEditedRecords() throws {
        let older = try export("older.zip", days: 6)
        let newer = try export("newer.zip", days: 6, previous: older)
        let before = try samples(older)
        let after = try samples(newer)
        let new = Set(after.keys).subtracting(before.keys)
        // The rule: a sample is deleted when the newer export lacks it between the newer one's
        // earliest sample of any kind (its retention horizon) and its latest of the same metric
        // and source (a deletion past that waits for a later sample).
        let horizon = try #require(after.values.map(\.start).min())
            .adding(seconds: ArchiveIngest.retentionMarginSeconds)
        var spans: [String: ClosedRange<Instant>] = [:]
        for sample in after.values {
            let key = sample.metric + "|" + sample.sourceName
            let span = spans[key].map { min($0.lowerBound, sample.start)...max($0.upperBound, sample.start) }
            spans[key] = span ?? sample.start...sample.start
        }
        spans = spans.mapValues { min($0.lowerBound, horizon)...$0.upperBound }
        let gone = before.filter { after[$0.key] == nil }
        let deleted = gone.filter {
            spans[$0.value.metric + "|" + $0.value.sourceName]?.contains($0.value.start) == true
        }
        #expect(deleted.count > new.count, "the generator deletes records and edits some")
        #expect(!new.isEmpty)

        let store = try store()
        _ = try importing(older, into: store)
        let summary = try importing(newer, into: store)
        #expect(summary.accepted == new.count)
        #expect(summary.tombstones == deleted.count)
        #expect(try store.status().samples.total == after.count + gone.count - deleted.count)
    }

    @Test func aTableMissingFromTheNewerExportDeletesNothingOfIt() throws {
        let older = try export("partial-older.zip", days: 4)
        let newer = try export("partial-newer.zip", days: 4, previous: older)
        let trimmed = try rewrite(newer, as: "partial-trimmed.zip") { try $0.execute("DROP TABLE steps_record_table") }
        let store = try store()
        _ = try importing(older, into: store)
        let steps = try store.status().samples.byMetric["step_count"] ?? 0
        let summary = try importing(trimmed, into: store)
        #expect(steps > 0)
        #expect(try store.status().samples.byMetric["step_count"] == steps)
        #expect(summary.tombstones > 0, "the other tables' deletions still count")
    }

    /// The time column of each record table, and the earliest instant any of them holds.
    func recordTimes(_ connection: SQLiteConnection) throws -> (columns: [String: String], earliest: Int64) {
        var columns: [String: String] = [:]
        let tables = try connection.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%_record_table'")
        while try tables.step() {
            let table = tables.text(0) ?? ""
            let info = try connection.prepare("SELECT name FROM pragma_table_info(?1)")
            try info.bind(1, table)
            var names: Set<String> = []
            while try info.step() { names.insert(info.text(0) ?? "") }
            if let column = ["start_time", "time"].first(where: names.contains) { columns[table] = column }
        }
        let earliest =
            try columns.map { table, column in
                try connection.scalar("SELECT min(\(column)) FROM \(table)") ?? .max
            }.min() ?? .max
        return (columns, earliest)
    }

    @Test func dataOlderThanTheNewerExportKeepsIsNoDeletion() throws {
        let older = try export("retention-older.zip", days: 4)
        // The phone dropped its oldest day of every table (retention, auto-delete): not a deletion.
        let trimmed = try rewrite(older, as: "retention-newer.zip", laterBy: 86_400) { connection in
            let (columns, earliest) = try recordTimes(connection)
            try connection.execute("PRAGMA foreign_keys = ON")
            for (table, column) in columns {
                try connection.execute("DELETE FROM \(table) WHERE \(column) < \(earliest + 86_400_000)")
            }
        }
        let store = try store()
        _ = try importing(older, into: store)
        let stored = try store.status().samples.total
        let summary = try importing(trimmed, into: store)
        #expect(stored > 0)
        #expect(summary.tombstones == 0)
        #expect(try store.status().samples.total == stored)
    }

    /// A record deleted on the phone that was the oldest of its metric and app is a deletion, not
    /// roll-off: it lies after the export's retention horizon. (Before, it stayed in the store.)
    @Test func theOldestRecordOfAMetricDeletedOnThePhoneIsDeleted() throws {
        // An export whose weights begin two days after its first record of any kind.
        let generated = try export("edge-generated.zip", days: 6)
        let older = try rewrite(generated, as: "edge-older.zip") { connection in
            let (columns, earliest) = try recordTimes(connection)
            let column = try #require(columns["weight_record_table"])
            try connection.execute("DELETE FROM weight_record_table WHERE \(column) < \(earliest + 2 * 86_400_000)")
        }
        // The next export, a day later, lacks the oldest weight of an app that has others (an app
        // whose only record goes is a source and metric the newer export does not cover at all).
        let trimmed = try rewrite(older, as: "edge-newer.zip", laterBy: 86_400) { connection in
            let column = try #require(try recordTimes(connection).columns["weight_record_table"])
            try connection.execute(
                """
                DELETE FROM weight_record_table WHERE row_id = (
                    SELECT row_id FROM weight_record_table w
                    WHERE (SELECT count(*) FROM weight_record_table o WHERE o.app_info_id = w.app_info_id) > 1
                    ORDER BY \(column) LIMIT 1)
                """)
        }
        let store = try store()
        _ = try importing(older, into: store)
        let weights = try store.status().samples.byMetric["body_mass"] ?? 0
        let summary = try importing(trimmed, into: store)
        #expect(weights > 1)
        #expect(summary.tombstones == 1)
        #expect(try store.status().samples.byMetric["body_mass"] == weights - 1)
    }

    /// Copies an export's database, changes it, and zips it again, dated `laterBy` seconds later.
    func rewrite(
        _ path: String, as name: String, laterBy seconds: Int64 = 0, _ change: (SQLiteConnection) throws -> Void
    ) throws -> String {
        let file = try HealthConnectExportFile(path: path)
        let copy = directory.child(name + ".db")
        try FileManager.default.copyItem(atPath: file.databasePath, toPath: copy)
        try change(try SQLiteConnection(path: copy))
        let entry = try #require(try ZipArchive(path: path).entries.first)
        let clock = try #require(entry.modified.wallClock)
        let day = try #require(CivilDate(year: clock.year, month: clock.month, day: clock.day))
        let shifted = day.secondsSinceEpoch(hour: clock.hour, minute: clock.minute, second: clock.second) + seconds
        let date = CivilDate(daysSinceEpoch: shifted / 86_400)
        let time = Int(shifted % 86_400)
        let modified = ZipTimestamp(
            year: date.year, month: date.month, day: date.day, hour: time / 3600, minute: time / 60 % 60,
            second: time % 60)
        let out = directory.child(name)
        let writer = try ZipWriter(path: out, modified: modified)
        try writer.beginEntry(HealthConnectExportFile.entryName)
        try writer.write(Array(try Data(contentsOf: URL(fileURLWithPath: copy))))
        try writer.endEntry()
        _ = try writer.finish()
        return out
    }
}
