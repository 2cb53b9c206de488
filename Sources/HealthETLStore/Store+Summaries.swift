import HealthETLCore
import HealthETLSQLite

extension Store {
    /// Per metric with samples: the first and last local start (the start at its recorded offset,
    /// UTC without one) and the sample count. One pass over the samples' identity index.
    public func metricSummaries() throws -> [(metric: String, firstLocal: Instant, lastLocal: Instant, samples: Int)] {
        let statement = try prepared(
            """
            SELECT m.name, min(s.start_ms + coalesce(s.utc_offset_s, 0) * 1000),
                max(s.start_ms + coalesce(s.utc_offset_s, 0) * 1000), count(*)
            FROM samples AS s JOIN metrics AS m ON m.id = s.metric_id
            GROUP BY s.metric_id ORDER BY m.name
            """)
        var summaries: [(metric: String, firstLocal: Instant, lastLocal: Instant, samples: Int)] = []
        while try statement.step() {
            summaries.append(
                (
                    statement.text(0) ?? "", Instant(millisecondsSinceEpoch: statement.int64(1)),
                    Instant(millisecondsSinceEpoch: statement.int64(2)), Int(statement.int64(3))
                ))
        }
        return summaries
    }

    /// Per source with samples: how many it wrote and the devices it wrote them from.
    public func sourceSummaries() throws -> [(source: String, samples: Int, devices: [String])] {
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
        return sources.map { ($0.name, $0.samples, devicesBySource[$0.id] ?? []) }
    }

    /// When the last complete import finished, and when the newest sample was committed.
    public func lastArrivals() throws -> (importFinished: Instant?, sampleCommitted: Instant?) {
        let imported = try prepared("SELECT max(finished_ms) FROM import_runs WHERE complete = 1").firstRow {
            $0.isNull(0) ? nil : Instant(millisecondsSinceEpoch: $0.int64(0))
        } ?? nil
        let committed = try prepared("SELECT max(committed_ms) FROM samples").firstRow {
            $0.isNull(0) ? nil : Instant(millisecondsSinceEpoch: $0.int64(0))
        } ?? nil
        return (imported, committed)
    }
}
