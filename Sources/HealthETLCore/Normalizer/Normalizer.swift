/// Checks records against the metric catalog and turns them into samples in canonical units.
///
/// Pure and table-driven: the catalog decides every rule, `now` is injected, and the outcome of
/// a record depends on nothing but the record.
public struct Normalizer: Sendable {
    public let catalog: MetricCatalog
    /// The source's "now": the export date for an archive, the clock for a live stream.
    public var now: Instant
    /// How far past `now` a sample may end before it is flagged as future-dated (clock skew).
    public var futureToleranceSeconds: Int64

    public init(catalog: MetricCatalog, now: Instant, futureToleranceSeconds: Int64 = 900) {
        self.catalog = catalog
        self.now = now
        self.futureToleranceSeconds = futureToleranceSeconds
    }

    public func normalize(_ record: RawRecord) -> NormalizationOutcome {
        normalize(record, as: catalog.metric(named: record.type))
    }

    /// Normalizes a record whose catalog entry the caller already looked up (`nil`: unknown),
    /// for callers that see the same type many times in a row.
    public func normalize(_ record: RawRecord, as metric: ResolvedMetric?) -> NormalizationOutcome {
        switch check(record, metric: metric) {
        case .success(let sample):
            return sample.flags.needsReview ? .flagged(sample) : .accepted(sample)
        case .failure(let rejection):
            return .quarantined(
                QuarantinedRecord(reason: rejection.reason, detail: rejection.detail, raw: record))
        }
    }

    /// The sample a record becomes (its id, metric and start), or `nil` if it would be
    /// quarantined: for sources that delete or edit samples they emitted earlier.
    public func sample(from record: RawRecord) -> Sample? {
        guard case .success(let sample) = check(record, metric: catalog.metric(named: record.type)) else { return nil }
        return sample
    }

    private func check(_ record: RawRecord, metric: ResolvedMetric?) -> Result<Sample, Rejection> {
        guard let metric else {
            return .failure(Rejection(.unknownType, "no catalog metric is named \(record.type)"))
        }
        if case .deviceRelative = record.start {
            return .failure(
                Rejection(.deviceRelativeTime, "start \(record.start.asWritten) counts from the device's power-up"))
        }
        guard let start = record.start.timestamp else {
            return .failure(Rejection(.unparseableDate, "start date \"\(record.start.asWritten)\" is not a date-time"))
        }
        guard let end = record.end.timestamp else {
            return .failure(Rejection(.unparseableDate, "end date \"\(record.end.asWritten)\" is not a date-time"))
        }
        guard end.instant >= start.instant else {
            return .failure(
                Rejection(.endBeforeStart, "ends \(start.instant.seconds(until: end.instant) * -1) s before it starts"))
        }
        if let violation = SampleBounds.violation(
            start: start.instant, end: end.instant, utcOffsetSeconds: start.utcOffsetSeconds ?? end.utcOffsetSeconds,
            longestSpanSeconds: metric.longestSpanSeconds)
        {
            return .failure(Rejection(QuarantineReason(violation), bounds(violation, metric: metric.definition)))
        }
        var value: Double?
        var category: String?
        switch metric.definition.kind {
        case .cumulative, .discrete:
            switch quantity(of: record, metric: metric) {
            case .success(let canonical): value = canonical
            case .failure(let rejection): return .failure(rejection)
            }
        case .category where record.isSummary && metric.summariesCount,
            .interval where record.isSummary && metric.summariesCount:
            switch summarizedCount(of: record, metric: metric) {
            case .success(let count): value = count
            case .failure(let rejection): return .failure(rejection)
            }
        case .category:
            switch categoryValue(of: record, metric: metric) {
            case .success(let canonical): category = canonical
            case .failure(let rejection): return .failure(rejection)
            }
        case .interval, .correlation:
            if record.value == .absent, !metric.definition.valueOptional {
                return .failure(Rejection(.missingValue, "\(metric.id) needs a value"))
            }
        }
        // One form per name, or one sample could get two ids and one source two rows. (The
        // store interns devices in that form itself.)
        let sourceName = CanonicalText.of(record.sourceName)
        let sample = Sample(
            id: ContentID(
                metric: metric.id, source: sourceName, start: start.instant,
                end: end.instant, value: record.value.asWritten, unit: record.unit),
            metric: metric.id, sourceName: sourceName,
            sourceVersion: CanonicalText.of(record.sourceVersion), device: record.device,
            start: start.instant,
            end: end.instant, utcOffsetSeconds: start.utcOffsetSeconds, value: value,
            category: category, valueAsWritten: record.value.asWritten,
            unitAsWritten: record.unit,
            flags: flags(metric: metric, value: value, start: start.instant, end: end.instant)
                .union(record.isSummary ? .summarized : []),
            metadata: record.metadata, series: record.series)
        return .success(sample)
    }

    /// The value in the canonical unit, within the hard limits.
    private func quantity(of record: RawRecord, metric: ResolvedMetric) -> Result<Double, Rejection> {
        let number: Double
        switch record.value {
        case .absent:
            return .failure(Rejection(.missingValue, "\(metric.id) needs a value"))
        case .number(let given):
            number = given
        case .text(let text):
            guard let parsed = Self.number(text) else {
                return .failure(Rejection(.unparseableValue, "value \"\(text)\" is not a number"))
            }
            number = parsed
        }
        guard number.isFinite else {
            return .failure(Rejection(.unparseableValue, "value is not a finite number"))
        }
        guard let unit = record.unit, !unit.isEmpty else {
            return .failure(Rejection(.missingUnit, "\(metric.id) needs a unit"))
        }
        guard let conversion = metric.conversions[unit] else {
            let accepted = metric.conversions.keys.sorted().joined(separator: ", ")
            return .failure(
                Rejection(.unknownUnit, "unit \"\(unit)\" is not accepted for \(metric.id) (accepted: \(accepted))"))
        }
        let canonical = conversion.toCanonical(number)
        guard SampleBounds.isDeliverable(canonical) else {
            return .failure(Rejection(.hardLimit, "\(metric.id) beyond ±1e12 \(metric.definition.unit ?? "")"))
        }
        if let hard = metric.definition.hard, !hard.contains(canonical) {
            return .failure(
                Rejection(
                    .hardLimit, "\(metric.id) outside its hard limits \(hard.text) \(metric.definition.unit ?? "")"))
        }
        return .success(canonical)
    }

    /// The canonical category value, or `nil` for an optional value left out.
    private func categoryValue(of record: RawRecord, metric: ResolvedMetric) -> Result<String?, Rejection> {
        guard let written = record.value.asWritten else {
            return metric.definition.valueOptional
                ? .success(nil) : .failure(Rejection(.missingValue, "\(metric.id) needs a value"))
        }
        guard let canonical = metric.categoryValues[written] else {
            return .failure(Rejection(.unknownCategoryValue, "\"\(written)\" is not a value of \(metric.id)"))
        }
        return .success(canonical)
    }

    /// A source's count of a category's events over a period (HAE's summarized `apple_stand_hour`,
    /// `qty` 7): a whole number of events, no category value of its own.
    private func summarizedCount(of record: RawRecord, metric: ResolvedMetric) -> Result<Double, Rejection> {
        let number: Double?
        switch record.value {
        case .number(let given): number = given
        case .text(let text): number = Self.number(text)
        case .absent: number = nil
        }
        guard let number else {
            let written = record.value.asWritten ?? ""
            return .failure(
                Rejection(.unparseableValue, "a summary of \(metric.id) counts events: \"\(written)\" is not a count"))
        }
        guard SampleBounds.isSummarizedCount(number) else {
            return .failure(
                Rejection(.hardLimit, "a summary of \(metric.id) counts events: a whole number from 0 to 1,000,000"))
        }
        return .success(number)
    }

    /// A value as written: a plain decimal read in one pass (`PlainDecimal`), any other spelling
    /// (an exponent, `+`, `nan`) as Swift reads it.
    private static func number(_ text: String) -> Double? {
        // Read in place: a copy to call `withUTF8` on would be retained and released.
        let plain = text.utf8.withContiguousStorageIfAvailable { PlainDecimal.value($0) }
        return (plain ?? nil) ?? Double(text)
    }

    /// What a bounds violation means, in a sentence.
    private func bounds(_ violation: SampleBounds.Violation, metric: MetricDefinition) -> String {
        switch violation {
        case .dateOutOfRange: "a date outside 1900-01-01 to 2199-12-31"
        case .utcOffsetOutOfRange: "a UTC offset beyond ±18:00"
        case .spanTooLong: "spans longer than \(SampleBounds.longestSpan(of: metric) / 86_400) days"
        }
    }

    private func flags(metric: ResolvedMetric, value: Double?, start: Instant, end: Instant) -> SampleFlags {
        var flags: SampleFlags = []
        let seconds = start.seconds(until: end)
        if let value, let plausible = metric.definition.plausible {
            if metric.definition.kind == .cumulative {
                // Per-day limits: a sample spanning several days may hold several days' worth.
                let days = max(1, seconds / 86_400)
                if let max = plausible.max, value > max * days { flags.insert(.outOfPlausibleRange) }
            } else if !plausible.contains(value) {
                flags.insert(.outOfPlausibleRange)
            }
        }
        if let longest = metric.definition.plausibleMaxDurationSeconds, seconds > longest {
            flags.insert(.implausibleDuration)
        }
        if end > now.adding(seconds: futureToleranceSeconds) {
            flags.insert(.futureDated)
        }
        return flags
    }
}

/// A failed check: the quarantine reason and a sentence saying exactly what was wrong.
private struct Rejection: Error {
    let reason: QuarantineReason
    let detail: String

    init(_ reason: QuarantineReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}

extension ValueRange {
    /// `[0, 100]`, `[0, ∞)` and the like, for messages.
    var text: String {
        let lower = min.map { "[\($0.formatted)" } ?? "(-∞"
        let upper = max.map { "\($0.formatted)]" } ?? "∞)"
        return lower + ", " + upper
    }
}

extension Double {
    /// Whole numbers without a trailing `.0`.
    var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
