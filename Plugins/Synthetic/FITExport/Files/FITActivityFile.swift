/// A run or ride as a Garmin watch records it: file_id, the creator's device_info, the timer's
/// start, a record every second (position, altitude, heart rate, cadence, distance, speed, and
/// power on rides) each followed by an hrv message with the beat intervals that ended in it, a
/// lap every kilometre (runs) or five (rides), the timer's stop, the session and the activity.
struct FITActivityFile {
    let plan: FITActivityPlan
    let watch: FITDevice
    let utcOffsetSeconds: Int

    private typealias Record = FITProfile.Record

    /// Local message types; each is defined once, before its first message.
    private enum Local {
        static let fileID = 0
        static let creator = 1
        static let event = 2
        static let record = 3
        static let hrv = 4
        static let lap = 5
        static let session = 6
        static let activity = 7
    }

    func encode() -> FITEncodedFile {
        var run = FITActivityRun(plan: plan)
        var fit = FITFileEncoder()
        fit.writeFileID(Local.fileID, type: FITProfile.FileType.activity, device: watch, created: plan.start)
        fit.writeCreator(Local.creator, device: watch, at: plan.start)
        fit.define(Local.event, FITActivityLayouts.event)
        fit.define(Local.record, FITActivityLayouts.record(power: plan.sport == .ride))
        fit.define(Local.hrv, FITActivityLayouts.hrv)
        fit.define(Local.lap, FITActivityLayouts.lap)
        writeTimer(&fit, at: plan.start, type: FITProfile.EventType.start)

        var lap = FITLapTotals(start: plan.start, distance: 0, calories: 0, ascent: 0)
        var session = FITLapTotals(start: plan.start, distance: 0, calories: 0, ascent: 0)
        var laps = 0
        for second in 0...plan.duration {
            let sample = run.advance(to: second)
            let time = plan.start + Int64(second)
            fit.write(
                Local.record,
                [
                    FITProfile.timestamp: .time(time),
                    Record.positionLat: .int(sample.latitude),
                    Record.positionLong: .int(sample.longitude),
                    Record.distance: .int(sample.distance),
                    Record.enhancedSpeed: .int(sample.speed),
                    Record.enhancedAltitude: .int(sample.altitude),
                    Record.heartRate: .int(Int64(sample.heartRate)),
                    Record.cadence: .int(sample.cadence),
                    Record.power: sample.power.map { .int($0) } ?? .invalid,
                ])
            // An hrv message holds at most five intervals; a second rarely ends more than three.
            var beats = sample.beats[...]
            while !beats.isEmpty {
                fit.write(Local.hrv, [FITProfile.HRV.time: .ints(Array(beats.prefix(FITProfile.HRV.slots)))])
                beats = beats.dropFirst(FITProfile.HRV.slots)
            }
            lap.add(sample)
            session.add(sample)
            let lapDistance = sample.distance - lap.startDistance
            if second < plan.duration && lapDistance >= run.lapLength {
                writeLap(&fit, lap, index: laps, at: time, sample: sample, trigger: FITProfile.LapTrigger.distance)
                laps += 1
                lap = FITLapTotals(
                    start: time, distance: sample.distance, calories: sample.calories, ascent: sample.ascent)
            }
        }
        let last = run.current
        writeLap(&fit, lap, index: laps, at: plan.end, sample: last, trigger: FITProfile.LapTrigger.sessionEnd)
        laps += 1
        writeTimer(&fit, at: plan.end, type: FITProfile.EventType.stopAll)
        let summary = writeSession(&fit, session, laps: laps, last: last)
        writeActivity(&fit)

        var file = FITEncodedFile(kind: .activity)
        file.append(fit)
        file.written.hrvIntervals = run.beatCount
        file.written.hrvMilliseconds = run.beatMilliseconds
        file.written.session = summary
        return file
    }

    private func writeTimer(_ fit: inout FITFileEncoder, at time: Int64, type: Int64) {
        fit.write(
            Local.event,
            [
                FITProfile.timestamp: .time(time),
                FITProfile.EventMessage.event: .int(FITProfile.Event.timer),
                FITProfile.EventMessage.eventType: .int(type),
                FITProfile.EventMessage.eventGroup: .int(0),
            ])
    }

    private func writeLap(
        _ fit: inout FITFileEncoder, _ lap: FITLapTotals, index: Int, at time: Int64, sample: FITActivitySample,
        trigger: Int64
    ) {
        typealias Lap = FITProfile.Lap
        let elapsed = Int64(time - lap.start) * 1000
        fit.write(
            Local.lap,
            [
                FITProfile.timestamp: .time(time),
                Lap.startTime: .time(lap.start),
                Lap.totalElapsedTime: .int(elapsed),
                Lap.totalTimerTime: .int(elapsed),
                Lap.totalDistance: .int(sample.distance - lap.startDistance),
                Lap.totalCalories: .int(Int64(sample.calories) - Int64(lap.startCalories)),
                Lap.totalAscent: .int(Int64(sample.ascent - lap.startAscent)),
                FITProfile.messageIndex: .int(Int64(index)),
                Lap.avgHeartRate: .int(lap.averageHeartRate),
                Lap.maxHeartRate: .int(Int64(lap.maxHeartRate)),
                Lap.event: .int(FITProfile.Event.lap),
                Lap.eventType: .int(FITProfile.EventType.stop),
                Lap.lapTrigger: .int(trigger),
                Lap.sport: .int(sport.value),
            ])
    }

    private func writeSession(
        _ fit: inout FITFileEncoder, _ totals: FITLapTotals, laps: Int, last: FITActivitySample
    ) -> FITSessionSummary {
        typealias Session = FITProfile.Session
        let elapsed = Int64(plan.duration) * 1000
        fit.define(Local.session, FITActivityLayouts.session)
        fit.write(
            Local.session,
            [
                FITProfile.timestamp: .time(plan.end),
                Session.startTime: .time(plan.start),
                Session.totalElapsedTime: .int(elapsed),
                Session.totalTimerTime: .int(elapsed),
                Session.totalDistance: .int(last.distance),
                Session.totalCalories: .int(Int64(last.calories)),
                Session.totalAscent: .int(Int64(last.ascent)),
                Session.totalDescent: .int(Int64(last.descent)),
                Session.firstLapIndex: .int(0),
                Session.numLaps: .int(Int64(laps)),
                FITProfile.messageIndex: .int(0),
                Session.avgHeartRate: .int(totals.averageHeartRate),
                Session.maxHeartRate: .int(Int64(totals.maxHeartRate)),
                Session.event: .int(FITProfile.Event.session),
                Session.eventType: .int(FITProfile.EventType.stop),
                Session.sport: .int(sport.value),
                Session.subSport: .int(subSport.value),
                Session.trigger: .int(0),
            ])
        return FITSessionSummary(
            sport: sport.name, subSport: subSport.name, startTime: FITTime.isoText(plan.start),
            totalElapsedTime: Double(elapsed) / 1000, totalDistance: Double(last.distance) / 100,
            totalCalories: last.calories)
    }

    private func writeActivity(_ fit: inout FITFileEncoder) {
        typealias Activity = FITProfile.Activity
        fit.define(Local.activity, FITActivityLayouts.activity)
        fit.write(
            Local.activity,
            [
                FITProfile.timestamp: .time(plan.end),
                Activity.totalTimerTime: .int(Int64(plan.duration) * 1000),
                // local_date_time: the wall clock's reading, counted from the FIT epoch.
                Activity.localTimestamp: .time(plan.end + Int64(utcOffsetSeconds)),
                Activity.numSessions: .int(1),
                Activity.type: .int(0),
                Activity.event: .int(FITProfile.Event.activity),
                Activity.eventType: .int(FITProfile.EventType.stop),
            ])
    }

    private var sport: (value: Int64, name: String) {
        plan.sport == .run ? FITProfile.Sport.running : FITProfile.Sport.cycling
    }

    private var subSport: (value: Int64, name: String) {
        plan.sport == .run ? FITProfile.SubSport.generic : FITProfile.SubSport.road
    }
}
