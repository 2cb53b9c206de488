import HealthETLCore
import HealthETLSQLite

/// Fills a Health Connect database one day at a time, in the module's stored units (energy in
/// calories, mass in grams) and enums (platform exercise types, stage types), with the row
/// conventions of the phone: a random 16-byte uuid per record, `last_modified_time` when the
/// app synced it, and the recording method.
struct HealthConnectRowWriter {
    /// `application_info_table` rows.
    enum App: Int64 {
        case samsungHealth = 1
        case fitbit = 2
        case myFitnessPal = 3
        case withings = 4
        case healthConnect = 5
    }

    /// `device_info_table` rows.
    enum Device: Int64 {
        case watch = 1
        case phone = 2
        case scale = 3
        case band = 4
    }

    /// Recording methods: 1 active, 2 automatic, 3 manual.
    static let active: Int64 = 1
    static let automatic: Int64 = 2
    static let manual: Int64 = 3
    /// Java's `Double.MIN_VALUE`: how Health Connect stores an unset optional number.
    static let unset = Double.leastNonzeroMagnitude
    /// Platform exercise type for running, and the running segment type.
    static let running: Int64 = 33
    static let runningSegment: Int64 = 16

    private let connection: SQLiteConnection
    private var random: SplitMix64
    private var statements: [String: SQLiteStatement] = [:]
    /// Where the watch's heart-rate series has got to: flying west makes a local day start before
    /// the previous one ended, and those hours are already recorded.
    private var heartRateUntil = Int64.min

    init(connection: SQLiteConnection, seed: UInt64) {
        self.connection = connection
        random = SplitMix64(state: SplitMix64.mix(seed ^ 0x4843_4558))
    }

    /// Apps, devices and the phone's priority per category (Samsung Health ahead of Fitbit for
    /// activity, the scale's app for body measurements).
    mutating func writeReferenceRows() throws {
        try connection.execute(
            """
            INSERT INTO application_info_table (row_id, package_name, app_name) VALUES
              (1, 'com.sec.android.app.shealth', 'Samsung Health'), (2, 'com.fitbit.FitbitMobile', 'Fitbit'),
              (3, 'com.myfitnesspal.android', 'MyFitnessPal'), (4, 'com.withings.wiscale2', 'Withings'),
              (5, 'com.google.android.apps.healthdata', 'Health Connect');
            INSERT INTO device_info_table (row_id, manufacturer, model, device_type) VALUES
              (1, 'Samsung', 'Galaxy Watch6', 1), (2, 'Google', 'Pixel 8', 2), (3, 'Withings', 'Body+', 3),
              (4, 'Fitbit', 'Charge 6', 6);
            INSERT INTO health_data_category_priority_table (health_data_category, app_id_priority_order) VALUES
              (1, '1,2'), (2, '4,5'), (4, '3'), (5, '1,2'), (6, '1,2');
            """)
    }

    /// One local day: `offset` is the phone's UTC offset that day, in seconds.
    mutating func writeDay(_ day: CivilDate, offset: Int32, heartRateInterval: Int) throws {
        let midnight = (day.daysSinceEpoch * 86_400 - Int64(offset)) * 1000
        let hour: Int64 = 3_600_000
        let runs = day.daysSinceEpoch % 2 == 0
        let runStart = midnight + 18 * hour
        let runEnd = runStart + 30 * 60_000
        try writeSteps(from: midnight + 7 * hour, hours: 16, offset: offset, run: runs ? runStart..<runEnd : nil)
        try writeHeartRate(
            midnight: midnight, offset: offset, interval: heartRateInterval, run: runs ? runStart..<runEnd : nil)
        try writeSleep(start: midnight - 50 * 60_000, offset: offset)
        if runs { try writeRun(start: runStart, end: runEnd, offset: offset) }
        try writeMeals(midnight: midnight, offset: offset)
        try writeBody(midnight: midnight, offset: offset, typedIn: day.daysSinceEpoch % 7 == 0)
    }

    // MARK: - Kinds of data

    /// The watch's steps every 15 minutes, and the band's hourly steps over the same time: two
    /// apps counting the same walking (the priority keeps one).
    private mutating func writeSteps(from start: Int64, hours: Int, offset: Int32, run: Range<Int64>?) throws {
        let quarter: Int64 = 900_000
        for hourIndex in 0..<Int64(hours) {
            var hourTotal = 0.0
            for part in 0..<Int64(4) {
                let begin = start + (hourIndex * 4 + part) * quarter
                let running = run.map { $0.contains(begin) } ?? false
                let count = running ? Double(random.int(2_000, 2_600)) : Double(random.int(0, 450))
                hourTotal += count
                try insert(
                    "steps_record_table", app: .samsungHealth, device: .watch, method: Self.automatic, start: begin,
                    end: begin + quarter, offset: offset, values: ["count": .integer(Int64(count))])
            }
            let band = (hourTotal * random.uniform(0.9, 1.08)).rounded()
            try insert(
                "steps_record_table", app: .fitbit, device: .band, method: Self.automatic,
                start: start + hourIndex * 4 * quarter, end: start + (hourIndex + 1) * 4 * quarter, offset: offset,
                values: ["count": .integer(Int64(band))])
        }
    }

    /// One series record per hour, a point every `interval` seconds: lower at night, high while running.
    private mutating func writeHeartRate(midnight: Int64, offset: Int32, interval: Int, run: Range<Int64>?) throws {
        let hour: Int64 = 3_600_000
        let step = Int64(interval) * 1000
        for hourIndex in 0..<Int64(24) {
            let begin = midnight + hourIndex * hour
            guard begin >= heartRateUntil else { continue }
            heartRateUntil = begin + hour
            let parent = try insert(
                "heart_rate_record_table", app: .samsungHealth, device: .watch, method: Self.automatic, start: begin,
                end: begin + hour - step, offset: offset, values: [:])
            let asleep = hourIndex < 7 || hourIndex == 23
            let points = try statement(
                "INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES (?1, ?2, ?3)"
            )
            var time = begin
            while time < begin + hour {
                let running = run.map { $0.contains(time) } ?? false
                let bpm = running ? random.int(140, 172) : asleep ? random.int(50, 64) : random.int(62, 96)
                try points.run(.integer(parent), .integer(Int64(bpm)), .integer(time))
                time += step
            }
        }
        try insert(
            "resting_heart_rate_record_table", app: .samsungHealth, device: .watch, method: Self.automatic,
            start: midnight + 23 * hour, end: nil, offset: offset,
            values: ["beats_per_minute": .integer(Int64(random.int(52, 60)))])
    }

    /// A night from 23:10 to about 06:50 in 90-minute cycles of light, deep and REM sleep, with a
    /// short wake; the watch's app records it, the band's app a plain session without stages.
    private mutating func writeSleep(start: Int64, offset: Int32) throws {
        let minute: Int64 = 60_000
        let cycle: [(type: Int64, minutes: Int64)] = [(4, 35), (5, 25), (4, 15), (6, 15)]
        var stages: [(Int64, Int64, Int64)] = []
        var time = start
        for index in 0..<5 {
            for stage in cycle {
                let length = stage.minutes + Int64(random.int(-4, 4))
                stages.append((time, time + length * minute, stage.type))
                time += length * minute
            }
            if index == 2 {
                stages.append((time, time + 6 * minute, 1))
                time += 6 * minute
            }
        }
        let session = try insert(
            "sleep_session_record_table", app: .samsungHealth, device: .watch, method: Self.automatic, start: start,
            end: time, offset: offset, values: [:])
        let insertStage = try statement(
            "INSERT INTO sleep_stages_table (parent_key, stage_start_time, stage_end_time, stage_type) VALUES (?1, ?2, ?3, ?4)"
        )
        for stage in stages {
            try insertStage.run(.integer(session), .integer(stage.0), .integer(stage.1), .integer(stage.2))
        }
        try insert(
            "sleep_session_record_table", app: .fitbit, device: .band, method: Self.automatic,
            start: start + 12 * minute, end: time - 8 * minute, offset: offset, values: [:])
    }

    /// A 30-minute run: the session with five 1 km laps, one running segment, a route point
    /// every 5 seconds round a park, and its distance and active energy.
    private mutating func writeRun(start: Int64, end: Int64, offset: Int32) throws {
        let session = try insert(
            "exercise_session_record_table", app: .samsungHealth, device: .watch, method: Self.active, start: start,
            end: end, offset: offset,
            values: ["exercise_type": .integer(Self.running), "title": .text("Evening run"), "has_route": .integer(1)])
        let lap = (end - start) / 5
        let insertLap = try statement(
            "INSERT INTO exercise_laps_table (parent_key, lap_start_time, lap_end_time, lap_length) VALUES (?1, ?2, ?3, ?4)"
        )
        for index in 0..<Int64(5) {
            try insertLap.run(
                .integer(session), .integer(start + index * lap), .integer(start + (index + 1) * lap), .real(1000))
        }
        try statement(
            "INSERT INTO exercise_segments_table (parent_key, segment_start_time, segment_end_time, segment_type, "
                + "repetitions_count) VALUES (?1, ?2, ?3, ?4, 0)"
        ).run(.integer(session), .integer(start), .integer(end), .integer(Self.runningSegment))
        let insertPoint = try statement(
            "INSERT INTO exercise_route_table (parent_key, timestamp_millis, longitude, latitude, horizontal_accuracy, "
                + "vertical_accuracy, altitude) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        var time = start
        while time <= end {
            let angle = Double(time - start) / Double(end - start) * 5 * 2 * Double.pi
            let (sine, cosine) = (sinApprox(angle), cosApprox(angle))
            try insertPoint.run(
                .integer(session), .integer(time), .real(13.4050 + 0.0045 * cosine), .real(52.5200 + 0.0028 * sine),
                .real(random.uniform(3, 8)), .real(Self.unset), .real(random.next() % 4 == 0 ? Self.unset : 38 + sine))
            time += 5000
        }
        try insert(
            "distance_record_table", app: .samsungHealth, device: .watch, method: Self.active, start: start, end: end,
            offset: offset, values: ["distance": .real(5000 + random.uniform(-40, 40))])
        try insert(
            "active_calories_burned_record_table", app: .samsungHealth, device: .watch, method: Self.active,
            start: start, end: end, offset: offset,
            values: ["energy": .real((random.uniform(330, 390) * 1000).rounded())])
    }

    /// Three meals logged in the food app: energy in calories, nutrients in grams, the rest unset.
    private mutating func writeMeals(midnight: Int64, offset: Int32) throws {
        let meals: [(hour: Int64, type: Int64, name: String, kcal: ClosedRange<Int>)] = [
            (8, 1, "Porridge with berries", 350...480), (13, 2, "Chicken salad", 520...700),
            (19, 3, "Pasta al pomodoro", 600...850),
        ]
        for meal in meals {
            let begin = midnight + meal.hour * 3_600_000
            let kcal = Double(random.int(meal.kcal.lowerBound, meal.kcal.upperBound))
            try insert(
                "nutrition_record_table", app: .myFitnessPal, device: .phone, method: Self.manual, start: begin,
                end: begin + 20 * 60_000, offset: offset,
                values: [
                    "energy": .real(kcal * 1000), "protein": .real((kcal * 0.05).rounded()),
                    "total_fat": .real((kcal * 0.035).rounded()), "total_carbohydrate": .real((kcal * 0.12).rounded()),
                    "sodium": .real(random.uniform(0.4, 1.2)), "caffeine": .real(Self.unset),
                    "vitamin_c": .real(Self.unset), "meal_type": .integer(meal.type), "meal_name": .text(meal.name),
                ])
        }
    }

    /// The morning weigh-in on the scale (grams); once a week typed in by hand instead.
    private mutating func writeBody(midnight: Int64, offset: Int32, typedIn: Bool) throws {
        let grams = (random.uniform(71_200, 72_600)).rounded()
        let time = midnight + 7 * 3_600_000 + 5 * 60_000
        if typedIn {
            try insert(
                "weight_record_table", app: .healthConnect, device: .phone, method: Self.manual, start: time,
                end: nil, offset: offset, values: ["weight": .real(grams)])
        } else {
            try insert(
                "weight_record_table", app: .withings, device: .scale, method: Self.automatic, start: time, end: nil,
                offset: offset, values: ["weight": .real(grams)])
            try insert(
                "body_fat_record_table", app: .withings, device: .scale, method: Self.automatic, start: time, end: nil,
                offset: offset, values: ["percentage": .real((random.uniform(17, 19) * 10).rounded() / 10)])
        }
    }

    // MARK: - Rows

    /// Inserts one record row (an instant when `end` is nil) and returns its row id.
    @discardableResult
    private mutating func insert(
        _ table: String, app: App, device: Device, method: Int64, start: Int64, end: Int64?, offset: Int32,
        values: [String: SQLiteValue]
    ) throws -> Int64 {
        let names = values.keys.sorted()
        let times =
            end == nil ? ["time", "zone_offset"] : ["start_time", "start_zone_offset", "end_time", "end_zone_offset"]
        let columns =
            ["uuid", "last_modified_time", "device_info_id", "app_info_id", "recording_method", "local_date"] + times
            + names
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let statement = try statement(
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        let uuid = (0..<2).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }
        let finished = end ?? start
        var bound: [SQLiteValue] = [
            .blob(uuid), .integer(finished + Int64(random.int(2, 40)) * 60_000), .integer(device.rawValue),
            .integer(app.rawValue), .integer(method),
            .integer((start / 1000 + Int64(offset)).floorDivided(by: 86_400).quotient),
        ]
        bound +=
            end.map { [.integer(start), .integer(Int64(offset)), .integer($0), .integer(Int64(offset))] }
            ?? [.integer(start), .integer(Int64(offset))]
        bound += names.map { values[$0] ?? .null }
        try statement.bind(bound)
        try statement.step()
        statement.reset()
        return connection.lastInsertRowID
    }

    private mutating func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try connection.prepare(sql)
        statements[sql] = prepared
        return prepared
    }
}
