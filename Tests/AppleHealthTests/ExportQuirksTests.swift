import AppleHealth
import Foundation
import HealthETLCore
import HealthETLTestSupport
import Testing

/// `apple_health` on `ExportQuirksFixture`, in every form a user may hand it over: each quirk the
/// real exports show is read into the values it stands for. Expected values are the fixture's,
/// worked out by hand.
@Suite struct ExportQuirksTests {
    let directory = TemporaryDirectory("quirks")

    /// Writes the fixture in `form` and reads it: completely, with no warning.
    func read(_ form: ExportQuirksForm) throws -> SourceEventLog {
        try read(path: try form.write(in: directory))
    }

    func read(path: String) throws -> SourceEventLog {
        var log = SourceEventLog()
        let report = try AppleHealthAdapter().read(SourceInput(path: path), into: &log)
        #expect(report.complete, "\(report.problem ?? "")")
        #expect(report.warnings.isEmpty)
        return log
    }

    /// A document body's JSON.
    static func object(_ body: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func mainFileWithALocalizedNameIsFoundByItsContent(_ form: ExportQuirksForm) throws {
        let path = try form.write(in: directory)
        #expect(AppleHealthAdapter().recognize(SourceInput(path: path)) == .recognized)
        let log = try read(path: path)
        // Named after the ExportDate inside 导出.xml, with its zh_CN locale on Me: the decoy
        // export_cda.xml and the __MACOSX copies were passed over.
        #expect(log.streams == ["apple_health:export-2024-03-05T08:00:00.000Z"])
        let me = try #require(log.documents.first { $0.kind == "characteristics" })
        #expect(me.body.contains(#"["locale","zh_CN"]"#))
        #expect(log.records.count == ExportQuirksFixture.topLevel["Record"])
        #expect(log.workouts.count == 1)
        #expect(log.activitySummaries.map(\.day) == [CivilDate(year: 2024, month: 3, day: 2)])
        #expect(log.documents.map(\.kind).sorted() == ["audiogram", "characteristics", "ecg"])
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func distancesInMilesAreReadAsWrittenAndStoredInMetres(_ form: ExportQuirksForm) throws {
        let log = try read(form)
        let distance = try #require(
            log.records.first { $0.type == "HKQuantityTypeIdentifierDistanceWalkingRunning" })
        #expect(distance.unit == "mi")
        #expect(distance.value == .text("1.25"))
        let normalizer = Normalizer(
            catalog: try MetricCatalog.bundled(),
            now: Instant(millisecondsSinceEpoch: ExportQuirksFixture.exportDateMilliseconds))
        let sample = try #require(normalizer.sample(from: distance))
        #expect(sample.metric == "distance_walking_running")
        #expect(abs(try #require(sample.value) - ExportQuirksFixture.distanceMeters) < 1e-9)
        #expect(sample.unitAsWritten == "mi")

        // The workout's statistic keeps Apple's unit.
        let statistic = try #require(
            log.workouts.first?.statistics.first {
                $0.type == "HKQuantityTypeIdentifierDistanceWalkingRunning"
            })
        #expect(statistic.sum == ExportQuirksFixture.distanceMiles)
        #expect(statistic.unit == "mi")
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func beatTimesWithADecimalCommaBecomeInstants(_ form: ExportQuirksForm) throws {
        let hrv = try read(form).records.filter {
            $0.type == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"
        }
        #expect(hrv.count == 2)
        let beats = hrv.map { $0.series.map { [$0.instant.millisecondsSinceEpoch, Int64($0.value)] } }
        #expect(beats.first == ExportQuirksFixture.eveningBeats.map { [$0.milliseconds, Int64($0.bpm)] })
        #expect(beats.last == ExportQuirksFixture.midnightBeats.map { [$0.milliseconds, Int64($0.bpm)] })
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func routeInAReferencedGPXFileIsRead(_ form: ExportQuirksForm) throws {
        let workout = try #require(try read(form).workouts.first)
        #expect(workout.routeFiles == [ExportQuirksFixture.routeReference])
        #expect(workout.route.count == ExportQuirksFixture.routePoints)
        for (index, point) in workout.route.enumerated() {
            #expect(point.latitude == Double(ExportQuirksFixture.routeLatitude(index)), "point \(index)")
            #expect(point.longitude == Double(ExportQuirksFixture.routeLongitude(index)), "point \(index)")
            let elevation = try #require(Double(ExportQuirksFixture.routeElevation(index)))
            #expect(abs((point.elevationMeters ?? 0) - elevation) < 1e-9, "point \(index)")
            #expect(
                point.instant?.millisecondsSinceEpoch
                    == ExportQuirksFixture.firstRoutePointMilliseconds
                    + Int64(index) * ExportQuirksFixture.routePointSpacingMilliseconds, "point \(index)")
            #expect(
                point.speedMetersPerSecond == 1.35 && point.horizontalAccuracyMeters == 3.5, "point \(index)")
        }
        #expect(workout.metadata.contains { $0.key == "route:HKMetadataKeySyncVersion" && $0.value == "2" })
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func audiogramIsKeptWithItsSensitivityPoints(_ form: ExportQuirksForm) throws {
        let audiogram = try #require(try read(form).documents.first { $0.kind == "audiogram" })
        #expect(audiogram.sourceName == "Mimi Hearing Test")
        // 09:58 and 10:04 on 2024-03-02 at +01:00.
        #expect(audiogram.start == Instant(millisecondsSinceEpoch: 1_709_369_880_000))
        #expect(audiogram.end == Instant(millisecondsSinceEpoch: 1_709_370_240_000))
        let body = try Self.object(audiogram.body)
        #expect(body["element"] as? String == "Audiogram")
        let points = try #require(body["children"] as? [[String: Any]])
        #expect(points.count == ExportQuirksFixture.audiogramFrequencies.count)
        #expect(points.allSatisfy { $0["element"] as? String == "SensitivityPoint" })
        let attributes = points.map { ($0["attributes"] as? [[String]]) ?? [] }
        let frequencies = attributes.compactMap { pairs in pairs.first { $0.first == "frequencyValue" }?.last
        }
        #expect(frequencies == ExportQuirksFixture.audiogramFrequencies.map { String($0) })
        #expect(attributes.last?.contains(["rightEarValue", "40"]) == true)
    }

    @Test(arguments: ExportQuirksForm.allCases)
    func ecgRecordingBecomesADocumentAndARecordWithoutThePerson(_ form: ExportQuirksForm) throws {
        let log = try read(form)
        let ecg = try #require(log.documents.first { $0.kind == "ecg" })
        for personal in ExportQuirksFixture.ecgPersonalValues {
            #expect(!ecg.body.contains(personal), "\(personal)")
        }
        let body = try Self.object(ecg.body)
        #expect(body["file"] as? String == "electrocardiograms/" + ExportQuirksFixture.ecgFileName)
        let voltages = try #require(body["voltages"] as? [NSNumber])
        #expect(voltages.count == ExportQuirksFixture.ecgVoltages)
        #expect(voltages.first?.doubleValue == -142.857)
        let header = try #require(body["header"] as? [[String]])
        #expect(
            header.map { $0[0] } == [
                "Recorded Date", "Classification", "Symptoms", "Software Version", "Device", "Sample Rate",
                "Lead", "Unit",
            ])
        #expect(header.contains(["Device", "Watch6,2"]))
        #expect(ecg.start == Instant(millisecondsSinceEpoch: ExportQuirksFixture.ecgStartMilliseconds))
        #expect(ecg.end == Instant(millisecondsSinceEpoch: ExportQuirksFixture.ecgEndMilliseconds))

        let (record, lane) = try #require(log.auxiliaryRecords.first)
        #expect(log.auxiliaryRecords.count == 1)
        // Recorded three days before the export date: in the hot window, so tier 1 sends it at once.
        #expect(lane == .hot)
        #expect(record.type == "HKDataTypeIdentifierElectrocardiogram")
        #expect(record.value == .text(ExportQuirksFixture.ecgClassification))
        #expect(record.device == "Watch6,2")
        #expect(
            record.start.timestamp?.instant.millisecondsSinceEpoch == ExportQuirksFixture.ecgStartMilliseconds
        )
        #expect(
            record.end.timestamp?.instant.millisecondsSinceEpoch == ExportQuirksFixture.ecgEndMilliseconds)
    }
}
