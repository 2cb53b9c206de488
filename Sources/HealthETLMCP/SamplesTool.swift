import HealthETLCore
import MCP

/// `samples`: one metric over a range, gathered into local hours, days or weeks per source; the
/// samples themselves only when asked, and at most 5000 of them.
struct SamplesTool: HealthTool {
    struct RawSample: Encodable {
        let start: String
        let end: String
        let value: Double?
        let category: String?
        let source: String
    }

    struct Answer: Encodable {
        let origin: String
        let metric: String
        let unit: String?
        let from: String
        let to: String
        let bucket: String?
        let buckets: [SampleBucketing.Bucket]?
        let samples: [RawSample]?
        let truncated: Bool
        let sourcesUsed: [String]

        private enum CodingKeys: String, CodingKey {
            case origin, metric, unit, from, to, bucket, buckets, samples, truncated
            case sourcesUsed = "sources_used"
        }
    }

    static let maximumRaw = 5000
    static let defaultRaw = 1000
    /// Hours are asked for over at most a quarter, days and weeks over ten years.
    static let maximumHourDays: Int64 = 93
    /// Samples read from the reader at a time: memory holds one page, whatever the range.
    static let pageSize = 10_000

    let name = "samples"
    let description = """
        One metric's samples over a range of local days, gathered by default into local days per \
        source (count, and the sum for cumulative metrics or the mean otherwise, with min and max); \
        `bucket` hour (at most 93 days) or week (Monday to Sunday) instead. With raw: true, the \
        samples themselves, oldest first, at most `limit` (default 1000, at most 5000) with \
        `truncated` set when more remain. Defaults to the 7 days ending today.
        """
    let inputSchema = JSONSchema.object(
        [
            "metric": JSONSchema.string("A metric name from list_metrics"),
            "from": JSONSchema.day("First local day, YYYY-MM-DD"),
            "to": JSONSchema.day("Last local day, YYYY-MM-DD (default today)"),
            "bucket": JSONSchema.choice(SampleBucketing.Width.allCases.map(\.rawValue), "Bucket width (default day)"),
            "raw": JSONSchema.boolean("The samples themselves instead of buckets"),
            "limit": JSONSchema.integer("Raw samples at most (default 1000, at most 5000)"),
        ], required: ["metric"])
    let outputSchema = JSONSchema.object(
        [
            "origin": JSONSchema.string(), "metric": JSONSchema.string(), "unit": JSONSchema.nullable("string"),
            "from": JSONSchema.string(), "to": JSONSchema.string(), "bucket": JSONSchema.string(),
            "buckets": JSONSchema.array(
                JSONSchema.object(
                    [
                        "start": JSONSchema.string(), "source": JSONSchema.string(), "count": JSONSchema.integer(),
                        "sum": JSONSchema.number(), "avg": JSONSchema.number(), "min": JSONSchema.number(),
                        "max": JSONSchema.number(),
                    ], required: ["start", "source", "count"])),
            "samples": JSONSchema.array(
                JSONSchema.object(
                    [
                        "start": JSONSchema.string(), "end": JSONSchema.string(), "value": JSONSchema.number(),
                        "category": JSONSchema.string(), "source": JSONSchema.string(),
                    ], required: ["start", "end", "source"])),
            "truncated": JSONSchema.boolean(), "sources_used": JSONSchema.array(JSONSchema.string()),
        ], required: ["origin", "metric", "unit", "from", "to", "truncated", "sources_used"])

    func answer(_ arguments: ToolArguments, in context: ToolContext) async throws -> ToolAnswer {
        let metric = try context.access.resolve(try arguments.required("metric"))
        let raw = try arguments.bool("raw") ?? false
        let widthName = try arguments.string("bucket") ?? SampleBucketing.Width.day.rawValue
        guard let width = SampleBucketing.Width(rawValue: widthName) else {
            throw ToolError("bucket must be hour, day or week")
        }
        let limit = try arguments.integer("limit", in: 1...Self.maximumRaw) ?? Self.defaultRaw
        let days = try arguments.days(
            defaultLast: context.today, defaultSpan: 7,
            maximumDays: !raw && width == .hour ? Self.maximumHourDays : DailyTool.maximumDays)
        let starts = DailyRollupCalculator.sampleWindow(for: days)
        let localDays = days.lowerBound.daysSinceEpoch...days.upperBound.daysSinceEpoch

        var bucketing = SampleBucketing(width: width)
        var rows: [RawSample] = []
        var sources: Set<String> = []
        var truncated = false
        var cursor: SampleCursor?
        reading: while true {
            try Task.checkCancellation()
            let page = try await context.reader.samples(
                metric: metric.id, starts: starts, after: cursor, limit: Self.pageSize)
            for sample in page {
                let offset = Int64(sample.utcOffsetSeconds ?? 0)
                let localStart = sample.start.millisecondsSinceEpoch.saturatingAdding(offset * 1000)
                guard localDays.contains(localStart.floorDivided(by: 86_400_000).quotient) else { continue }
                if raw {
                    guard rows.count < limit else {
                        truncated = true
                        break reading
                    }
                    rows.append(
                        RawSample(
                            start: sample.start.iso8601(utcOffsetSeconds: Int32(offset)),
                            end: sample.end.iso8601(utcOffsetSeconds: Int32(offset)), value: sample.value,
                            category: sample.category, source: sample.sourceName))
                } else {
                    bucketing.add(sample, localStart: localStart)
                }
                sources.insert(sample.sourceName)
            }
            guard page.count == Self.pageSize, let last = page.last else { break }
            cursor = SampleCursor(start: last.start, id: last.id)
        }
        let buckets = raw ? nil : bucketing.buckets(cumulative: metric.kind == .cumulative)
        let answer = Answer(
            origin: context.reader.origin, metric: metric.id, unit: metric.unit, from: days.lowerBound.description,
            to: days.upperBound.description, bucket: raw ? nil : width.rawValue, buckets: buckets,
            samples: raw ? rows : nil, truncated: truncated, sourcesUsed: sources.sorted())
        return try ToolAnswer(answer, text: Self.text(answer))
    }

    private static func text(_ answer: Answer) -> String {
        let unit = answer.unit.map { " \($0)" } ?? ""
        var lines: [String] = []
        if let samples = answer.samples {
            lines.append(
                "\(samples.count) \(answer.metric) samples, \(answer.from) to \(answer.to)"
                    + (answer.truncated ? " (truncated: narrow the range or raise limit)" : "") + ":")
            for sample in samples.prefix(50) {
                lines.append(
                    "\(sample.start) \(sample.value.map { NumberText.short($0) + unit } ?? sample.category ?? "") (\(sample.source))"
                )
            }
            if samples.count > 50 { lines.append("(the text shows the first 50; the structured answer has all)") }
        } else if let buckets = answer.buckets {
            lines.append(
                "\(answer.metric) by \(answer.bucket ?? "day") and source, \(answer.from) to \(answer.to): \(buckets.count) buckets"
            )
            for bucket in buckets.suffix(48) {
                let figure =
                    bucket.sum.map { "sum \(NumberText.short($0))\(unit)" }
                    ?? bucket.avg.map { "mean \(NumberText.short($0))\(unit)" } ?? ""
                lines.append("\(bucket.start) \(bucket.source): \(bucket.count) samples \(figure)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
