import HealthETLCollectorStorage
import HealthETLCore
import HealthETLWire

/// Checks each item of a batch on its own against the catalog's hard rules (known metric, ids,
/// dates, end ≥ start, values within hard limits, known categories): a bad item is refused with
/// its reason and the rest of the batch goes on.
public struct BatchValidator: Sendable {
    let catalog: MetricCatalog
    /// Canonical category values per category metric id.
    private let categories: [String: Set<String>]

    public init(catalog: MetricCatalog) {
        self.catalog = catalog
        var categories: [String: Set<String>] = [:]
        for definition in catalog.metrics {
            guard let metric = catalog.metric(named: definition.id), !metric.categoryValues.isEmpty else { continue }
            categories[definition.id] = Set(metric.categoryValues.values)
        }
        self.categories = categories
    }

    /// Batch ids become idempotency keys: short, printable, no spaces.
    static func isValidBatchID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }

    public func validate(_ batch: WireBatch) -> ValidatedBatch {
        var samples: [Sample] = []
        var indexes: [Int] = []
        samples.reserveCapacity(batch.samples.count)
        indexes.reserveCapacity(batch.samples.count)
        var rejections: [WireRejection] = []
        for (index, wire) in batch.samples.enumerated() {
            switch sample(wire) {
            case .success(let sample):
                samples.append(sample)
                indexes.append(index)
            case .failure(let reason):
                rejections.append(WireRejection(item: "sample", index: index, id: wire.id, reason: reason.code))
            }
        }
        var deletions: [Tombstone] = []
        for (index, wire) in batch.deletions.enumerated() {
            switch deletion(wire) {
            case .success(let tombstone): deletions.append(tombstone)
            case .failure(let reason):
                rejections.append(WireRejection(item: "deletion", index: index, id: wire.id, reason: reason.code))
            }
        }
        return ValidatedBatch(
            id: batch.batchID, samples: samples, sampleIndexes: indexes, deletions: deletions, rejections: rejections)
    }

    struct Reason: Error {
        let code: String
        init(_ code: String) { self.code = code }
    }

    private func sample(_ wire: WireSample) -> Result<Sample, Reason> {
        guard let id = ContentID(hex: wire.id) else { return .failure(Reason("invalid_id")) }
        guard let metric = catalog.metric(named: wire.metric) else { return .failure(Reason("unknown_metric")) }
        let definition = metric.definition
        guard !wire.source.isEmpty else { return .failure(Reason("missing_source")) }
        guard let start = TimestampParser.parse(wire.start)?.instant else { return .failure(Reason("invalid_start")) }
        guard let end = TimestampParser.parse(wire.end)?.instant else { return .failure(Reason("invalid_end")) }
        guard end >= start else { return .failure(Reason("end_before_start")) }
        // The same bounds the normalizer keeps on import; an offset too wide for Int32 stays too wide.
        switch SampleBounds.violation(
            start: start, end: end, utcOffsetSeconds: wire.utcOffsetSeconds.map { Int32(clamping: $0) },
            longestSpanSeconds: metric.longestSpanSeconds)
        {
        case .dateOutOfRange: return .failure(Reason("date_out_of_range"))
        case .utcOffsetOutOfRange: return .failure(Reason("invalid_utc_offset"))
        case .spanTooLong: return .failure(Reason("span_too_long"))
        case nil: break
        }
        var metadata: [MetadataEntry] = []
        if let zone = wire.timeZone { metadata.append(MetadataEntry(key: "HKTimeZone", value: zone)) }
        if wire.userEntered == true { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1")) }
        var flags = SampleFlags()
        for name in wire.flags ?? [] {
            guard let known = SampleFlags.named.first(where: { $0.name == name }) else {
                return .failure(Reason("unknown_flag"))
            }
            flags.insert(known.flag)
        }
        // A category's summary may be a count of its events, with no category value of its own.
        let isSummarizedCount = flags.contains(.summarized) && metric.summariesCount
        if definition.kind.isQuantity {
            guard let value = wire.value else { return .failure(Reason("missing_value")) }
            // Beyond any health quantity, and large enough to overflow a day's sum.
            guard SampleBounds.isDeliverable(value) else { return .failure(Reason("invalid_value")) }
            if let minimum = definition.hard?.min, value < minimum { return .failure(Reason("value_below_hard_limit")) }
            if let maximum = definition.hard?.max, value > maximum { return .failure(Reason("value_above_hard_limit")) }
        } else if isSummarizedCount {
            guard let value = wire.value else { return .failure(Reason("missing_value")) }
            guard SampleBounds.isSummarizedCount(value) else { return .failure(Reason("invalid_value")) }
        } else if wire.value != nil {
            return .failure(Reason("unexpected_value"))
        }
        if definition.kind == .category, !isSummarizedCount {
            if let category = wire.category {
                guard categories[definition.id]?.contains(category) == true else {
                    return .failure(Reason("unknown_category"))
                }
            } else if !definition.valueOptional {
                return .failure(Reason("missing_category"))
            }
        } else if wire.category != nil {
            return .failure(Reason("unexpected_category"))
        }
        var sample = Sample(
            id: id, metric: definition.id, sourceName: wire.source, sourceVersion: wire.sourceVersion,
            device: wire.device, start: start, end: end, utcOffsetSeconds: wire.utcOffsetSeconds.map(Int32.init),
            value: wire.value, category: wire.category, flags: flags, metadata: metadata)
        if let text = wire.restoresDeletionAt {
            guard let instant = TimestampParser.parse(text)?.instant else {
                return .failure(Reason("invalid_restores_deletion_at"))
            }
            sample.restoresDeletionAt = instant
        }
        return .success(sample)
    }

    private func deletion(_ wire: WireDeletion) -> Result<Tombstone, Reason> {
        guard let id = ContentID(hex: wire.id) else { return .failure(Reason("invalid_id")) }
        guard let metric = catalog.metric(named: wire.metric) else { return .failure(Reason("unknown_metric")) }
        guard let start = TimestampParser.parse(wire.start)?.instant else { return .failure(Reason("invalid_start")) }
        // A client that does not say when is taken to have deleted it as early as it can have
        // been (its start), so any return of the sample outranks the deletion.
        var deletedAt = start
        if let text = wire.deletedAt {
            guard let instant = TimestampParser.parse(text)?.instant else {
                return .failure(Reason("invalid_deleted_at"))
            }
            deletedAt = instant
        }
        return .success(
            Tombstone(sampleID: id, metric: metric.id, start: start, reason: "deleted_by_client", deletedAt: deletedAt))
    }
}
