/// GPX 1.1 route files as the Health app exports them (`workout-routes/route_…gpx`).
enum RouteWriter {
    /// `route_2024-03-01_6.12pm.gpx`, from the Pacific wall clock at the workout's end.
    static func fileName(for workout: WorkoutPlan) -> String {
        let local = CivilTime.localWallClock(workout.end)
        let date = CivilTime.date(days: local.day)
        let hour24 = local.second / 3600
        let minute = (local.second / 60) % 60
        var hour12 = hour24 % 12
        if hour12 == 0 { hour12 = 12 }
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let year = String(date.year)
        return "route_\(year)-\(two(date.month))-\(two(date.day))_\(hour12).\(two(minute))"
            + (hour24 < 12 ? "am" : "pm") + ".gpx"
    }

    /// A loop in Golden Gate Park, one point every `interval` seconds of moving time, rendered
    /// into `out` (the caller finishes it: the route may go to a file, a zip entry or both).
    static func write(_ workout: WorkoutPlan, to out: ByteWriter, interval: Int, seed: UInt64) {
        var random = SplitMix64(state: seed)
        out.put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.put(
            "<gpx version=\"1.1\" creator=\"Apple Health Export\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n"
        )
        out.put("  <metadata>\n    <time>2024-12-02T15:41:27Z</time>\n  </metadata>\n  <trk>\n")
        let name = fileName(for: workout)
        out.put("    <name>Route ")
        // "route_2024-03-01_6.12pm.gpx" → "2024-03-01 6:12pm"
        let stem = name.dropFirst("route_".count).dropLast(".gpx".count)
        out.put(stem.replacingFirst("_", with: " ").replacingFirst(".", with: ":"))
        out.put("</name>\n    <trkseg>\n")

        let loop = WorkoutLoop(workout, random: &random)
        let speed = loop.speed
        var travelled = 0.0
        var time = workout.start
        let step = Int64(max(1, interval))
        while time <= workout.end {
            if !workout.isPaused(time) {
                let angle = loop.angle(after: travelled)
                let latitude = loop.latitude(at: angle)
                let longitude = loop.longitude(at: angle)
                out.put("      <trkpt lon=\"")
                out.fixed(longitude + random.uniform(-0.000_02, 0.000_02), scale: 6)
                out.put("\" lat=\"")
                out.fixed(latitude + random.uniform(-0.000_02, 0.000_02), scale: 6)
                out.put("\"><ele>")
                out.fixed(loop.elevation(at: angle) + random.uniform(-0.3, 0.3), scale: 6)
                out.put("</ele><time>")
                out.isoUTC(time)
                out.put("</time><extensions><speed>")
                out.fixed(max(0, speed * random.uniform(0.85, 1.15)), scale: 6)
                out.put("</speed><course>")
                var course = (angle * 57.295_779_513 + 90).truncatingRemainder(dividingBy: 360)
                if course < 0 { course += 360 }
                out.fixed(course, scale: 6)
                out.put("</course><hAcc>")
                out.fixed(random.uniform(1.2, 4.5), scale: 6)
                out.put("</hAcc><vAcc>")
                out.fixed(random.uniform(0.9, 3.2), scale: 6)
                out.put("</vAcc></extensions></trkpt>\n")
                travelled += speed * Double(step)
            }
            time += step
        }
        out.put("    </trkseg>\n  </trk>\n</gpx>\n")
    }
}

extension Substring {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return String(self) }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}

extension String {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        Substring(self).replacingFirst(target, with: replacement)
    }
}
