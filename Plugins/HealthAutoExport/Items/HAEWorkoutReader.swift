import HealthETLCore

/// Reads an item of `workouts`, format v1 or v2: the workout itself (statistics, route), a
/// `workout` sample for the projections, and the series HAE attaches (heart rate per minute,
/// steps, energy, distance) as records of their metrics.
struct HAEWorkoutReader {
    let catalog: MetricCatalog
    private let activities: [String: String]

    init(catalog: MetricCatalog) {
        self.catalog = catalog
        activities = catalog.metric(named: "workout")?.categoryValues ?? [:]
    }

    /// Series a workout carries, by member, and the metric each point belongs to.
    static let series: [String: String] = [
        "heartRateData": "heart_rate", "heartRateRecovery": "heart_rate", "stepCount": "step_count",
        "activeEnergy": "active_energy", "walkingAndRunningDistance": "walking_running_distance",
        "cyclingDistance": "cycling_distance", "swimDistance": "swimming_distance",
        "swimStroke": "swimming_stroke_count",
    ]
    /// Totals that are sums over the workout; any other `{qty, units}` member is an average.
    /// (v1's `activeEnergy` is a total; v2's is a series: the member's type tells them apart.)
    private static let sums: Set<String> = [
        "activeEnergyBurned", "activeEnergy", "totalEnergy", "distance", "elevationUp", "elevationDown",
        "stepCount", "flightsClimbed", "swimStrokes", "totalSwimmingStrokeCount",
    ]
    private static let known = [
        "id", "name", "start", "end", "duration", "route", "heartRate", "avgHeartRate", "maxHeartRate", "source",
    ]

    func read(_ item: JSONValue, points: inout HAEPointReader, emit: (HAEItem) throws -> Void) throws {
        let name = item["name"]?.text ?? ""
        let source = item["source"]?.text ?? HAEFields.defaultSource
        let start = HAEFields.time(item["start"])
        let end = HAEFields.time(item["end"])
        var metadata = [MetadataEntry(key: "hae_workout_name", value: name)]
        if let id = item["id"]?.text { metadata.append(MetadataEntry(key: "hae_workout_id", value: id)) }
        metadata += HAEFields.extras(of: item, known: Self.known)
        let activity = HAEWorkoutActivity.value(of: name) { activities[$0] != nil } ?? "other"
        try emit(
            .record(
                RawRecord(
                    type: "workout", sourceName: source, value: .text(activity), start: start, end: end,
                    metadata: metadata)))
        if case .timestamp(let from) = start, case .timestamp(let to) = end {
            try emit(.workout(workout(item, name: name, source: source, from: from, to: to, metadata: metadata)))
        }
        for (member, metric) in Self.series.sorted(by: { $0.key < $1.key }) {
            guard case .array(let series)? = item[member] else { continue }
            for point in series {
                var withSource = point
                if point["source"] == nil, case .object(var members) = point {
                    members.append((key: "source", value: .string(source)))
                    withSource = .object(members)
                }
                try points.read(metric: metric, units: point["units"]?.text, point: withSource, emit: emit)
            }
        }
    }

    private func workout(
        _ item: JSONValue, name: String, source: String, from: Timestamp, to: Timestamp, metadata: [MetadataEntry]
    ) -> Workout {
        var statistics: [WorkoutStatistic] = []
        if case .object(let members) = item {
            for member in members where !Self.known.contains(member.key) {
                guard let (qty, units) = HAEFields.quantity(member.value), case .object = member.value else { continue }
                statistics.append(
                    Self.sums.contains(member.key)
                        ? WorkoutStatistic(type: member.key, sum: qty, unit: units)
                        : WorkoutStatistic(type: member.key, average: qty, unit: units))
            }
        }
        if let heartRate = heartRateStatistic(item) { statistics.append(heartRate) }
        return Workout(
            activityType: name, sourceName: source, start: from.instant, end: to.instant,
            utcOffsetSeconds: from.utcOffsetSeconds,
            durationSeconds: item["duration"]?.text.flatMap(Double.init), metadata: metadata, statistics: statistics,
            route: route(item["route"]))
    }

    /// v2's `heartRate {min, avg, max}`, or v1's `avgHeartRate` and `maxHeartRate`.
    private func heartRateStatistic(_ item: JSONValue) -> WorkoutStatistic? {
        let rate = item["heartRate"]
        let average = HAEFields.quantity(rate?["avg"]) ?? HAEFields.quantity(item["avgHeartRate"])
        let minimum = HAEFields.quantity(rate?["min"])
        let maximum = HAEFields.quantity(rate?["max"]) ?? HAEFields.quantity(item["maxHeartRate"])
        guard average != nil || minimum != nil || maximum != nil else { return nil }
        return WorkoutStatistic(
            type: "heartRate", average: average?.qty, minimum: minimum?.qty, maximum: maximum?.qty,
            unit: average?.units ?? maximum?.units ?? minimum?.units)
    }

    /// `route[]` points: v2's `latitude`/`longitude`/`altitude`/`timestamp`, v1's `lat`/`lon`.
    private func route(_ value: JSONValue?) -> [RoutePoint] {
        guard case .array(let points)? = value else { return [] }
        return points.compactMap { point in
            guard let latitude = HAEFields.first(["latitude", "lat"], in: point)?.text.flatMap(Double.init),
                let longitude = HAEFields.first(["longitude", "lon"], in: point)?.text.flatMap(Double.init)
            else { return nil }
            let number = { (keys: [String]) in HAEFields.first(keys, in: point)?.text.flatMap(Double.init) }
            let routePoint = RoutePoint(
                instant: HAEFields.first(["timestamp", "date"], in: point)?.text.flatMap(TimestampParser.parse)?
                    .instant,
                latitude: latitude, longitude: longitude, elevationMeters: number(["altitude", "elevation"]),
                speedMetersPerSecond: number(["speed"]),
                horizontalAccuracyMeters: number(["horizontalAccuracy"]))
            return routePoint.isOnEarth ? routePoint : nil
        }
    }
}
