import HealthETLCollectorStorage
import HealthETLCore
import HealthETLSQLite
import HealthETLTestSupport
import HealthETLWire
import Testing

@testable import HealthETLCollectorSQLite
@testable import HealthETLServer

/// The SQLite collector keeps a sample's source, version, device and time zone as ids into
/// `texts`: what is read back is what was sent, byte for byte, each distinct text is stored once,
/// and a database from before the ids reads as it did.
@Suite struct SampleTextsTests {
    /// "Café" precomposed and decomposed: equal as Swift strings, different as bytes.
    static let precomposed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"
    static let everything = Int64.min..<Int64.max

    /// Three samples each of texts that differ only in their bytes, are missing, or repeat
    /// another column's text.
    static func batch(_ id: String) -> WireBatch {
        let spellings: [(source: String, version: String?, device: String?, zone: String?)] = [
            (precomposed, "1.0", precomposed, "Europe/Paris"),
            (decomposed, "1.0", decomposed, "Europe/Paris"),
            (precomposed, nil, nil, nil),
            ("Simon’s Apple Watch", "11.1", "name:Apple Watch, manufacturer:Apple Inc.", "America/Los_Angeles"),
        ]
        var samples: [WireSample] = []
        for (index, spelling) in spellings.enumerated() {
            for step in 0..<3 {
                let minute = index * 3 + step
                let start = "2026-01-05T10:\(minute < 10 ? "0" : "")\(minute):00Z"
                let end = "2026-01-05T10:\(minute < 10 ? "0" : "")\(minute):30Z"
                var sample = WireFixtures.sample(
                    "step_count", source: spelling.source, start: start, end: end, value: Double(10 + minute),
                    offset: spelling.zone == nil ? nil : 3600, timeZone: spelling.zone, device: spelling.device)
                sample.sourceVersion = spelling.version
                samples.append(sample)
            }
        }
        return WireFixtures.batch(id, samples)
    }

    static func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }

    static func textCount(in directory: String) throws -> Int64? {
        let connection = try SQLiteConnection.open(
            in: DatabaseDirectory(path: directory), profile: .collector, migrations: CollectorSchema.migrations,
            nowMilliseconds: 0)
        return try connection.scalar("SELECT count(*) FROM texts")
    }

    @Test func textsReadBackByteForByteAndAreStoredOnce() async throws {
        let catalog = try MetricCatalog.bundled()
        let directory = TemporaryDirectory("collector-sample-texts")
        let data = directory.child("data")
        var upgrades: [[String]] = []
        let storage = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog) {
            upgrades.append($0)
        }
        #expect(upgrades.isEmpty, "a new database is no upgrade")
        let sent = Self.batch("first")
        let validator = BatchValidator(catalog: catalog)
        let validated = validator.validate(sent)
        #expect(validated.samples.count == sent.samples.count)
        _ = try await storage.apply(validated, user: "alice", bodyDigest: sent.canonicalDigest())

        let read = try await storage.samples(
            user: "alice", metric: "step_count", starts: Self.everything, after: nil, limit: 100)
        #expect(read.count == validated.samples.count)
        let byID = Dictionary(uniqueKeysWithValues: read.map { ($0.id, $0) })
        for expected in validated.samples {
            let stored = try #require(byID[expected.id])
            #expect(Self.bytes(stored.sourceName) == Self.bytes(expected.sourceName))
            #expect(Self.bytes(stored.sourceVersion) == Self.bytes(expected.sourceVersion))
            #expect(Self.bytes(stored.device) == Self.bytes(expected.device))
            #expect(Self.bytes(stored.timeZone) == Self.bytes(expected.timeZone))
        }
        // Three sources, two versions, one device that is not also a source's name, two zones.
        #expect(try Self.textCount(in: data) == 8)

        // The same texts in a later batch are the same ids.
        let later = WireFixtures.batch(
            "later",
            sent.samples.map {
                var sample = WireFixtures.sample(
                    "step_count", source: $0.source, start: $0.start, end: $0.end, value: ($0.value ?? 0) + 100,
                    offset: $0.utcOffsetSeconds, timeZone: $0.timeZone, device: $0.device)
                sample.sourceVersion = $0.sourceVersion
                return sample
            })
        _ = try await storage.apply(validator.validate(later), user: "alice", bodyDigest: later.canonicalDigest())
        #expect(
            try await storage.samples(
                user: "alice", metric: "step_count", starts: Self.everything, after: nil, limit: 100
            ).count == 2 * sent.samples.count)
        #expect(try Self.textCount(in: data) == 8)
        let sources = try await storage.sourceSummaries(user: "alice").map(\.samples)
        #expect(sources.reduce(0, +) == 2 * sent.samples.count)
    }

    /// Samples written with their texts inline (migrations 0001-0004) read the same after 0005.
    @Test func aDatabaseWithTextsInlineIsMigratedToIDs() async throws {
        let catalog = try MetricCatalog.bundled()
        let directory = TemporaryDirectory("collector-sample-texts-migration")
        let data = directory.child("data")
        do {
            let old = try SQLiteConnection.open(
                in: DatabaseDirectory(path: data), profile: .collector,
                migrations: Array(CollectorSchema.migrations.prefix(4)), nowMilliseconds: 0)
            try old.execute(
                """
                INSERT INTO users(id, name) VALUES (1, 'alice');
                INSERT INTO metrics(id, name) VALUES (1, 'step_count');
                INSERT INTO samples(user_id, metric_id, start_ms, id, end_ms, source, source_version, device,
                    utc_offset_s, time_zone, value, category, user_entered, flags, updated_ms, restores_ms)
                VALUES
                    (1, 1, 1000, X'00000000000000000000000000000001', 2000, '\(Self.precomposed)', '1.0',
                        '\(Self.precomposed)', 3600, 'Europe/Paris', 12, NULL, 0, 0, 5, NULL),
                    (1, 1, 3000, X'00000000000000000000000000000002', 4000, '\(Self.decomposed)', NULL,
                        NULL, NULL, NULL, 7, NULL, 1, 2, 5, 4500);
                """)
        }
        var upgrades: [[String]] = []
        let storage = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog) {
            upgrades.append($0)
        }
        // Announced once, before it runs; opening the upgraded database announces nothing.
        #expect(upgrades == [["0005_sample_texts"]])
        _ = try SQLiteCollectorStorage(directory: data, users: ["alice"], catalog: catalog) { upgrades.append($0) }
        #expect(upgrades.count == 1)
        let read = try await storage.samples(
            user: "alice", metric: "step_count", starts: Self.everything, after: nil, limit: 10)
        try #require(read.count == 2)
        #expect(Self.bytes(read[0].sourceName) == Self.bytes(Self.precomposed))
        #expect(read[0].sourceVersion == "1.0")
        #expect(Self.bytes(read[0].device) == Self.bytes(Self.precomposed))
        #expect(read[0].timeZone == "Europe/Paris")
        #expect(read[0].utcOffsetSeconds == 3600)
        #expect(read[0].value == 12)
        #expect(Self.bytes(read[1].sourceName) == Self.bytes(Self.decomposed))
        #expect(read[1].sourceVersion == nil)
        #expect(read[1].device == nil)
        #expect(read[1].timeZone == nil)
        #expect(read[1].isUserEntered)
        #expect(read[1].start.millisecondsSinceEpoch == 3000 && read[1].end.millisecondsSinceEpoch == 4000)
        // The two spellings, one version, one zone; the device is the first source's name.
        #expect(try Self.textCount(in: data) == 4)
        #expect(try await storage.sourceSummaries(user: "alice").map(\.samples).reduce(0, +) == 2)
    }
}
