import HealthETLCore

/// Turns the points of a metric's `data` into records in the catalog's terms.
///
/// A point with `start` and `end` is one measurement; a point with only `date` is HAE's summary of
/// a period (`HAEPeriod`), marked so the projections never add it to raw samples. The special
/// shapes are read by the metric they belong to: heart rate's Min/Avg/Max, blood pressure's two
/// components, blood glucose's meal time, and sleep as stages or as a night's totals.
struct HAEPointReader {
    let catalog: MetricCatalog
    /// The last name looked up and its metric id (a metric's points come in a run).
    private var resolved: (name: String, id: String?)?

    init(catalog: MetricCatalog) {
        self.catalog = catalog
    }

    /// Members a plain point is read from; the others are kept as metadata.
    private static let pointMembers = ["date", "qty", "source", "start", "end", "startDate", "endDate", "units"]
    private static let heartRateMembers = ["Min", "Avg", "Max", "min", "avg", "max"] + pointMembers
    private static let bloodPressureMembers = ["systolic", "diastolic"] + pointMembers
    private static let sleepStageMembers = ["value"] + pointMembers
    private static let sleepTotalsMembers =
        pointMembers + ["sleepStart", "sleepEnd", "inBedStart", "inBedEnd", "sleepSource", "inBedSource"]

    mutating func read(metric name: String, units: String?, point: JSONValue, emit: (HAEItem) throws -> Void) throws {
        switch metricID(name) {
        case "heart_rate" where point["Avg"] != nil || point["avg"] != nil:
            try emit(.record(heartRate(name: name, units: units, point: point)))
        case "blood_pressure":
            try emit(bloodPressure(name: name, units: units, point: point))
        case "sleep_analysis" where point["value"] == nil:
            for record in sleepTotals(name: name, point: point) { try emit(.record(record)) }
        case "sleep_analysis":
            // A stage: `value` is the stage, `qty` only its length in hours.
            try emit(
                .record(
                    plain(
                        name: name, units: nil, point: point, known: Self.sleepStageMembers,
                        value: HAEFields.value(point["value"]))))
        default:
            try emit(.record(plain(name: name, units: units, point: point, known: Self.pointMembers)))
        }
    }

    private mutating func metricID(_ name: String) -> String? {
        if let resolved, resolved.name == name { return resolved.id }
        let id = catalog.metric(named: name)?.definition.id
        resolved = (name, id)
        return id
    }

    /// `{date, qty, source}` (a summary) or `{start, end, qty, source}` (a measurement); sleep
    /// stages, glucose and the rest of the catalog read the same way.
    private func plain(
        name: String, units: String?, point: JSONValue, known: [String], value: RawValue? = nil,
        isSummary summary: Bool? = nil
    ) -> RawRecord {
        let source = point["source"]?.text ?? HAEFields.defaultSource
        let metadata = HAEFields.extras(of: point, known: known)
        let value = value ?? HAEFields.value(point["qty"])
        let unit = point["units"]?.text ?? units
        if let start = HAEFields.first("start", or: "startDate", in: point),
            let end = HAEFields.first("end", or: "endDate", in: point)
        {
            return RawRecord(
                type: name, sourceName: source, unit: unit, value: value, start: HAEFields.time(start),
                end: HAEFields.time(end), metadata: metadata, isSummary: summary ?? false)
        }
        // Only `date`: a summary of the period it starts, unless the shape says it is a reading.
        let isSummary = summary ?? true
        let start = HAEFields.time(point["date"])
        var end = start
        if isSummary, case .timestamp(let instant) = start { end = .timestamp(HAEPeriod.end(startingAt: instant)) }
        return RawRecord(
            type: name, sourceName: source, unit: unit, value: value, start: start, end: end, metadata: metadata,
            isSummary: isSummary)
    }

    /// `{date, Min, Avg, Max}`: the average is the value, the extremes metadata. Equal extremes
    /// are one reading, not a summary, and need no metadata.
    private func heartRate(name: String, units: String?, point: JSONValue) -> RawRecord {
        let minimum = HAEFields.first("Min", or: "min", in: point)
        let average = HAEFields.first("Avg", or: "avg", in: point)
        let maximum = HAEFields.first("Max", or: "max", in: point)
        let isReading = minimum == average && average == maximum
        var record = plain(
            name: name, units: units, point: point, known: Self.heartRateMembers, value: HAEFields.value(average),
            isSummary: isReading ? false : nil)
        guard !isReading else { return record }
        if let minimum = minimum?.text { record.metadata.append(MetadataEntry(key: "hae_min", value: minimum)) }
        if let maximum = maximum?.text { record.metadata.append(MetadataEntry(key: "hae_max", value: maximum)) }
        return record
    }

    /// `{date, systolic, diastolic}`: one reading, the correlation with its two components.
    private func bloodPressure(name: String, units: String?, point: JSONValue) -> HAEItem {
        let panel = plain(
            name: name, units: nil, point: point, known: Self.bloodPressureMembers, value: .absent, isSummary: false)
        let components = [("blood_pressure_systolic", "systolic"), ("blood_pressure_diastolic", "diastolic")].map {
            metric, member in
            var component = panel
            component.type = metric
            component.unit = point["units"]?.text ?? units
            component.value = HAEFields.value(point[member])
            component.metadata = []
            return component
        }
        return .correlation(panel, components: components)
    }

    /// A night's totals (`{date, asleep, inBed, sleepStart, sleepEnd, …}`, hours): the in-bed and
    /// asleep spans as summaries, the stage totals as metadata. Where the phone's own stages are
    /// stored too, they win in the sleep projection.
    private func sleepTotals(name: String, point: JSONValue) -> [RawRecord] {
        let source = point["source"]?.text ?? HAEFields.defaultSource
        let totals = HAEFields.extras(of: point, known: Self.sleepTotalsMembers)
        var records: [RawRecord] = []
        for (stage, start, end, sourceKey) in [
            ("In Bed", "inBedStart", "inBedEnd", "inBedSource"), ("Asleep", "sleepStart", "sleepEnd", "sleepSource"),
        ] {
            guard let startValue = point[start], let endValue = point[end] else { continue }
            records.append(
                RawRecord(
                    type: name, sourceName: point[sourceKey]?.text ?? source, value: .text(stage),
                    start: HAEFields.time(startValue), end: HAEFields.time(endValue), metadata: totals,
                    isSummary: true))
        }
        if records.isEmpty {
            // Totals without their spans: kept at the night's date, a summary of no length.
            let date = HAEFields.time(point["date"])
            records.append(
                RawRecord(
                    type: name, sourceName: source, value: .text("Asleep"), start: date, end: date, metadata: totals,
                    isSummary: true))
        }
        return records
    }
}
