import Foundation
import HealthETLCore

/// Turns `export.xml`'s elements into source events: records, correlations and their components,
/// workouts, activity summaries and documents. Nothing is skipped silently: an element it does
/// not know is kept as a document and counted as a warning.
///
/// A value, changed in place by `ExportXMLHandler` once per element the parser reports: the
/// fields of a class would each cost a dynamic exclusivity check at every read and write, about
/// twenty per record (2 % of an import's time).
struct ExportXMLReading {
    /// Events produced since the adapter last drained them.
    var events: [SourceEvent] = []
    private(set) var warnings: [String: Int] = [:]
    private(set) var streamName: String?
    private let hotWindowSeconds: Int64
    /// The stream of an export without an `ExportDate`, named by its content's fingerprint.
    private let undatedStream: String
    /// How many of `events` the last top-level element to end completed: what lies before the
    /// parser's `topLevelEnd`, where a resumed read can start again.
    private(set) var eventsAtTopLevelEnd = 0
    /// Set to stop the parse (with `ExportDated`) at the end of the top-level element that names
    /// the stream: a resumed read learns its stream and where the prologue ends this way.
    var stopsOnceDated = false
    private let readAt: Instant
    private let routes: RouteResolver
    private let endPosition: Int64?
    private var hotSince: Instant?
    private var depth = 0
    private var record: PendingRecord?
    private var correlation: PendingRecord?
    private var workout: PendingWorkout?
    private var document: PendingDocument?
    private var locale: String?
    private var types = RepeatedStringCache()
    private var sources = RepeatedStringCache()
    private var versions = RepeatedStringCache()
    private var units = RepeatedStringCache()
    private var devices = RepeatedStringCache()
    private var metadataKeys = RepeatedStringCache()

    /// - Parameters:
    ///   - readAt: the time of the read, the "now" of an export without an `ExportDate`.
    ///   - endPosition: the main file's size, when known, for the stream's progress.
    ///   - fingerprint: names the stream of an export without an `ExportDate`.
    init(hotWindowSeconds: Int64, readAt: Instant, routes: RouteResolver, endPosition: Int64?, fingerprint: String) {
        self.undatedStream = "apple_health:undated-" + fingerprint
        self.readAt = readAt
        self.hotWindowSeconds = hotWindowSeconds
        self.routes = routes
        self.endPosition = endPosition
    }

    mutating func warn(_ kind: String) {
        warnings[kind, default: 0] += 1
    }

    /// The events of every top-level element that has ended; those of an element still open
    /// follow. (A slice: no copy of the events.)
    var completedEvents: ArraySlice<SourceEvent> { events[..<eventsAtTopLevelEnd] }

    /// Drops `completedEvents`.
    mutating func dropCompletedEvents() {
        events.removeFirst(eventsAtTopLevelEnd)
        eventsAtTopLevelEnd = 0
    }

    // MARK: - The parser's events

    mutating func startElement(_ name: XMLBytes, attributes: XMLAttributes) throws {
        depth += 1
        switch depth {
        case 1:
            if name == "HealthData" {
                locale = attributes.string("locale")
            } else {
                throw ExportError.notAnExport(
                    path: "export", detail: "the root element is \(name.string), not HealthData")
            }
        case 2:
            try startTopLevel(name, attributes: attributes)
        default:
            startNested(name, attributes: attributes)
        }
    }

    mutating func endElement(_ name: XMLBytes) throws {
        defer { depth -= 1 }
        if depth == 2 {
            try endTopLevel(name)
            eventsAtTopLevelEnd = events.count
            if stopsOnceDated, streamName != nil { throw ExportDated() }
        } else if name == "Record", correlation != nil, let component = record {
            record = nil
            events.append(.correlationComponent(component.record, lane: lane(component)))
        } else if name == "WorkoutActivity", var pending = workout, let activity = pending.activity {
            pending.workout.activities.append(activity)
            pending.activity = nil
            workout = pending
        } else if name == "WorkoutRoute" {
            workout?.inRoute = false
        }
    }

    // MARK: - Top-level elements

    private mutating func startTopLevel(_ name: XMLBytes, attributes: XMLAttributes) throws {
        if name == "Record" {
            ensureStream()
            record = pendingRecord(attributes)
        } else if name == "Correlation" {
            ensureStream()
            correlation = pendingRecord(attributes)
        } else if name == "Workout" {
            ensureStream()
            workout = pendingWorkout(attributes)
        } else if name == "ActivitySummary" {
            ensureStream()
            activitySummary(attributes)
        } else if name == "ExportDate" {
            let date = attributes["value"].flatMap { TimestampParser.parse(bytes: $0.bytes) }
            if date == nil { warn("unparseable_export_date") }
            if streamName == nil { startStream(exportDate: date?.instant) }
        } else {
            ensureStream()
            let kind = DocumentKind.of(name)
            if kind == "unknown_element" { warn("unknown_element") }
            var pending = PendingDocument(kind: kind, element: name.string, attributes: entries(attributes))
            if name == "Me", let locale { pending.attributes.append(MetadataEntry(key: "locale", value: locale)) }
            pending.sourceName = attributes.string("sourceName")
            pending.start = (attributes["startDate"] ?? attributes["date"] ?? attributes["receivedDate"])
                .flatMap { TimestampParser.parse(bytes: $0.bytes)?.instant }
            pending.end = attributes["endDate"].flatMap { TimestampParser.parse(bytes: $0.bytes)?.instant }
            document = pending
        }
    }

    private mutating func endTopLevel(_ name: XMLBytes) throws {
        if let pending = record, name == "Record" {
            record = nil
            events.append(.record(pending.record, lane: lane(pending)))
        } else if let pending = correlation, name == "Correlation" {
            correlation = nil
            events.append(.correlation(pending.record, lane: lane(pending)))
        } else if var pending = workout, name == "Workout" {
            workout = nil
            pending.workout.route += try routes.points(
                for: pending.workout.routeFiles, keeping: RouteResolver.maximumPoints - pending.workout.route.count
            ) { warn($0) }
            if pending.omittedRoutePoints > 0 { warn("route_truncated") }
            let ends = pending.workout.end
            events.append(.workout(pending.workout, lane: isHot(ends) ? .hot : .cold))
        } else if let pending = document {
            document = nil
            events.append(.document(pending.document))
        }
    }

    // MARK: - Nested elements

    private mutating func startNested(_ name: XMLBytes, attributes: XMLAttributes) {
        if record != nil {
            nestedInRecord(name, attributes: attributes)
        } else if correlation != nil {
            if name == "Record" {
                record = pendingRecord(attributes)
            } else if name == "MetadataEntry" {
                let entry = metadataEntry(attributes)
                if correlation?.add(entry) == false { warn("record_children_truncated") }
            } else {
                warn("unknown_child_element")
            }
        } else if workout != nil {
            nestedInWorkout(name, attributes: attributes)
        } else if document != nil {
            if document?.add(child: name, attributes: attributes) == false { warn("document_truncated") }
        } else {
            warn("unknown_child_element")
        }
    }

    private mutating func nestedInRecord(_ name: XMLBytes, attributes: XMLAttributes) {
        if name == "MetadataEntry" {
            let entry = metadataEntry(attributes)
            if record?.add(entry) == false { warn("record_children_truncated") }
        } else if name == "InstantaneousBeatsPerMinute" {
            guard let start = record?.start, let time = attributes["time"],
                let bpm = attributes["bpm"].flatMap({ DecimalText.number($0.bytes) }),
                let instant = BeatTimeResolver.instant(
                    of: time, near: start.instant, utcOffsetSeconds: start.utcOffsetSeconds)
            else {
                warn("unparseable_heartbeat")
                return
            }
            if record?.add(SeriesPoint(instant: instant, value: bpm)) == false { warn("record_children_truncated") }
        } else if !(name == "HeartRateVariabilityMetadataList") {
            warn("unknown_child_element")
        }
    }

    private mutating func nestedInWorkout(_ name: XMLBytes, attributes: XMLAttributes) {
        guard var pending = workout else { return }
        defer { workout = pending }
        if name == "MetadataEntry" {
            let entry = metadataEntry(attributes)
            if pending.inRoute {
                pending.workout.metadata.append(MetadataEntry(key: "route:" + entry.key, value: entry.value))
            } else if pending.activity != nil {
                pending.activity?.metadata.append(entry)
            } else {
                pending.workout.metadata.append(entry)
            }
        } else if name == "WorkoutEvent" {
            guard let date = instant(attributes["date"]) else { return warn("unparseable_workout_event") }
            let event = WorkoutEvent(
                type: attributes.string("type") ?? "", date: date,
                durationSeconds: seconds(attributes.string("duration"), unit: attributes.string("durationUnit")))
            if pending.activity != nil {
                pending.activity?.events.append(event)
            } else {
                pending.workout.events.append(event)
            }
        } else if name == "WorkoutStatistics" {
            let statistic = WorkoutStatistic(
                type: attributes.string("type") ?? "", start: instant(attributes["startDate"]),
                end: instant(attributes["endDate"]), sum: number(attributes["sum"]),
                average: number(attributes["average"]), minimum: number(attributes["minimum"]),
                maximum: number(attributes["maximum"]), unit: attributes.string("unit"))
            if pending.activity != nil {
                pending.activity?.statistics.append(statistic)
            } else {
                pending.workout.statistics.append(statistic)
            }
        } else if name == "WorkoutRoute" {
            pending.inRoute = true
        } else if name == "FileReference" {
            if let path = attributes.string("path") { pending.workout.routeFiles.append(path) }
        } else if name == "Location" {
            let point = RoutePoint(
                instant: instant(attributes["date"]), latitude: number(attributes["latitude"]) ?? .nan,
                longitude: number(attributes["longitude"]) ?? .nan, elevationMeters: number(attributes["altitude"]),
                speedMetersPerSecond: number(attributes["speed"]),
                horizontalAccuracyMeters: number(attributes["horizontalAccuracy"]))
            guard point.isOnEarth else { return warn("unparseable_location") }
            pending.add(point)
        } else if name == "WorkoutActivity" {
            guard let start = instant(attributes["startDate"]) else { return warn("unparseable_workout_activity") }
            pending.activity = WorkoutActivity(
                activityType: attributes.string("workoutActivityType"), start: start,
                end: instant(attributes["endDate"]) ?? start,
                durationSeconds: seconds(attributes.string("duration"), unit: attributes.string("durationUnit")))
        } else {
            warn("unknown_child_element")
        }
    }

    // MARK: - Building values

    private mutating func pendingRecord(_ tag: XMLAttributes) -> PendingRecord {
        let attributes = RecordAttributes(tag)
        let start = attributes.startDate.flatMap { TimestampParser.parse(bytes: $0.bytes) }
        // Most records end as they start, in the same spelling (a heart rate): parsed once.
        let end = attributes.endDate.flatMap { end in
            attributes.startDate?.hasSameBytes(as: end) == true ? start : TimestampParser.parse(bytes: end.bytes)
        }
        let record = RawRecord(
            type: attributes.type.map { types.string(for: $0) } ?? "",
            sourceName: attributes.sourceName.map { sources.string(for: $0) } ?? "",
            sourceVersion: attributes.sourceVersion.map { versions.string(for: $0) },
            device: attributes.device.map { device($0) },
            unit: attributes.unit.map { units.string(for: $0) },
            value: attributes.value.map { RawValue.text($0.string) } ?? .absent,
            start: rawTime(start, attributes.startDate), end: rawTime(end, attributes.endDate))
        return PendingRecord(record: record, start: start, end: end)
    }

    private func rawTime(_ parsed: Timestamp?, _ bytes: XMLBytes?) -> RawTime {
        if let parsed { return .timestamp(parsed) }
        return .text(bytes?.string ?? "")
    }

    private mutating func pendingWorkout(_ attributes: XMLAttributes) -> PendingWorkout? {
        guard let start = attributes["startDate"].flatMap({ TimestampParser.parse(bytes: $0.bytes) }),
            let end = instant(attributes["endDate"])
        else {
            warn("unparseable_workout")
            document = PendingDocument(kind: "unparseable_workout", element: "Workout", attributes: entries(attributes))
            return nil
        }
        var totals: [MetadataEntry] = []
        attributes.forEach { key, value in
            if key.string.hasPrefix("total") { totals.append(MetadataEntry(key: key.string, value: value.string)) }
        }
        return PendingWorkout(
            workout: Workout(
                activityType: attributes.string("workoutActivityType") ?? "",
                sourceName: attributes.string("sourceName") ?? "",
                sourceVersion: attributes.string("sourceVersion"), device: attributes["device"].map { device($0) },
                start: start.instant, end: end, utcOffsetSeconds: start.utcOffsetSeconds,
                durationSeconds: seconds(attributes.string("duration"), unit: attributes.string("durationUnit")),
                totals: totals))
    }

    private mutating func activitySummary(_ attributes: XMLAttributes) {
        guard let day = attributes["dateComponents"].flatMap({ Self.civilDate($0.string) }) else {
            warn("unparseable_activity_summary")
            events.append(
                .document(
                    PendingDocument(
                        kind: "unparseable_activity_summary", element: "ActivitySummary",
                        attributes: entries(attributes)
                    ).document))
            return
        }
        events.append(
            .activitySummary(
                ActivitySummary(day: day, attributes: entries(attributes).filter { $0.key != "dateComponents" })))
    }

    private mutating func device(_ bytes: XMLBytes) -> String {
        devices.string(for: DeviceDescription.withoutAddress(bytes))
    }

    private mutating func metadataEntry(_ attributes: XMLAttributes) -> MetadataEntry {
        MetadataEntry(
            key: attributes["key"].map { metadataKeys.string(for: $0) } ?? "",
            value: attributes.string("value") ?? "")
    }

    private func entries(_ attributes: XMLAttributes) -> [MetadataEntry] {
        var list: [MetadataEntry] = []
        attributes.forEach { list.append(MetadataEntry(key: $0.string, value: $1.string)) }
        return list
    }

    private func instant(_ bytes: XMLBytes?) -> Instant? {
        bytes.flatMap { TimestampParser.parse(bytes: $0.bytes)?.instant }
    }

    private func number(_ bytes: XMLBytes?) -> Double? {
        bytes.flatMap { DecimalText.number($0.bytes) }
    }

    private func seconds(_ text: String?, unit: String?) -> Double? {
        guard let text, let value = Double(text) else { return nil }
        switch unit {
        case "s", "sec": return value
        case "hr", "h": return value * 3600
        case "ms": return value / 1000
        default: return value * 60
        }
    }

    static func civilDate(_ text: String) -> CivilDate? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return nil
        }
        return CivilDate(year: year, month: month, day: day)
    }

    // MARK: - Stream and lanes

    /// Starts the stream if the file had no `ExportDate` before its first element (or at all):
    /// then it is not a snapshot to compare.
    mutating func ensureStream() {
        if streamName == nil { startStream(exportDate: nil) }
    }

    private mutating func startStream(exportDate: Instant?) {
        let now = exportDate ?? readAt
        let name = exportDate.map { "apple_health:export-" + $0.description } ?? undatedStream
        streamName = name
        hotSince = now.adding(seconds: -hotWindowSeconds)
        events.append(
            .streamStarted(stream: name, now: now, isFullSnapshot: exportDate != nil, endPosition: endPosition))
    }

    private func lane(_ pending: PendingRecord) -> Lane {
        guard let end = pending.end?.instant else { return .cold }
        return lane(ending: end)
    }

    /// The lane of something that ends at `end`: hot within the hot window before the export date.
    func lane(ending end: Instant) -> Lane {
        isHot(end) ? .hot : .cold
    }

    private func isHot(_ end: Instant) -> Bool {
        guard let hotSince else { return false }
        return end >= hotSince
    }
}
