import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Per metric with samples: the local days of its first and last sample by start, and the
    /// sample count. One pass over the samples' identity index, then two index steps per metric.
    public func metricSummaries() throws -> [MetricSummary] {
        let counts = try prepared("SELECT metric_id, count(*) FROM samples GROUP BY metric_id")
        var perMetric: [(id: Int64, samples: Int)] = []
        while try counts.step() { perMetric.append((counts.int64(0), Int(counts.int64(1)))) }
        let names = Dictionary(
            try numberedNames("SELECT id, name FROM metrics"), uniquingKeysWith: { first, _ in first })
        let first = try prepared(
            "SELECT start_ms + coalesce(utc_offset_s, 0) * 1000 FROM samples WHERE metric_id = ?1 ORDER BY start_ms LIMIT 1"
        )
        let last = try prepared(
            "SELECT start_ms + coalesce(utc_offset_s, 0) * 1000 FROM samples WHERE metric_id = ?1 ORDER BY start_ms DESC LIMIT 1"
        )
        var summaries: [MetricSummary] = []
        for (id, samples) in perMetric {
            try first.bind(.integer(id))
            try last.bind(.integer(id))
            guard let name = names[id], let firstLocal = try first.firstRow({ $0.int64(0) }),
                let lastLocal = try last.firstRow({ $0.int64(0) })
            else { continue }
            summaries.append(
                MetricSummary(
                    metric: name, firstDay: Instant(millisecondsSinceEpoch: firstLocal).utcDay,
                    lastDay: Instant(millisecondsSinceEpoch: lastLocal).utcDay, samples: samples))
        }
        return summaries.sorted { $0.metric < $1.metric }
    }

    /// Per source with samples: how many it wrote and the devices it wrote them from.
    public func sourceSummaries() throws -> [SourceSamples] {
        let counts = try prepared(
            """
            SELECT s.source_id, src.name, count(*) FROM samples AS s JOIN sources AS src ON src.id = s.source_id
            GROUP BY s.source_id ORDER BY src.name
            """)
        var sources: [(id: Int64, name: String, samples: Int)] = []
        while try counts.step() {
            sources.append((counts.int64(0), counts.text(1) ?? "", Int(counts.int64(2))))
        }
        let devices = try prepared(
            """
            SELECT DISTINCT s.source_id, d.description FROM samples AS s JOIN devices AS d ON d.id = s.device_id
            ORDER BY 2
            """)
        var devicesBySource: [Int64: [String]] = [:]
        while try devices.step() {
            if let description = devices.text(1) { devicesBySource[devices.int64(0), default: []].append(description) }
        }
        return sources.map { SourceSamples(name: $0.name, samples: $0.samples, devices: devicesBySource[$0.id] ?? []) }
    }

    /// When the last complete import finished, and when the newest sample was committed.
    public func lastArrivals() throws -> (importFinished: Instant?, sampleCommitted: Instant?) {
        let imported =
            try prepared("SELECT max(finished_ms) FROM import_runs WHERE complete = 1").firstRow {
                $0.isNull(0) ? nil : Instant(millisecondsSinceEpoch: $0.int64(0))
            } ?? nil
        let committed =
            try prepared("SELECT max(committed_ms) FROM samples").firstRow {
                $0.isNull(0) ? nil : Instant(millisecondsSinceEpoch: $0.int64(0))
            } ?? nil
        return (imported, committed)
    }
}

extension Store {
    /// SQLite's `data_version`: it changes when another connection commits to the store, so a
    /// reader that never writes learns cheaply whether what it computed still holds.
    public func dataVersion() throws -> Int64 {
        try connection.scalar("PRAGMA data_version") ?? 0
    }
}

extension Store {
    /// Shrinks this connection's page cache: a reader that only looks things up (`healthetl mcp`)
    /// needs far less than the writer's.
    public func limitPageCache(mebibytes: Int) throws {
        try connection.execute("PRAGMA cache_size = -\(mebibytes * 1024)")
    }
}
