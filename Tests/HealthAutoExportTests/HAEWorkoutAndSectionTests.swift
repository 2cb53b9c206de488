import HealthETLCore
import Testing

@testable import HealthAutoExport

/// Workouts in formats 1 and 2, and the sections beside the metrics, as the normalizer sees them.
@Suite struct HAEWorkoutAndSectionTests {
    typealias P = HAEPointReaderTests

    static let version2 = """
        {"data": {"workouts": [{"id": "9A1B", "name": "Outdoor Run", "start": "2024-02-06 18:00:00 -0800",
          "end": "2024-02-06 18:30:00 -0800", "duration": 1795.5,
          "activeEnergyBurned": {"qty": 310, "units": "kcal"}, "distance": {"qty": 5.1, "units": "km"},
          "intensity": {"qty": 9.1, "units": "kcal/hr·kg"},
          "heartRate": {"min": {"qty": 98, "units": "bpm"}, "avg": {"qty": 142, "units": "bpm"},
                        "max": {"qty": 171, "units": "bpm"}},
          "heartRateData": [{"date": "2024-02-06 18:01:00 -0800", "Min": 120, "Avg": 130, "Max": 140,
                             "units": "count/min", "source": "Apple Watch"}],
          "route": [{"latitude": 37.77, "longitude": -122.42, "altitude": 12, "speed": 2.8,
                     "horizontalAccuracy": 4, "timestamp": "2024-02-06 18:01:00 -0800"},
                    {"latitude": 137.77, "longitude": -122.42, "timestamp": "2024-02-06 18:02:00 -0800"}]}]}}
        """

    static let version1 = """
        {"data": {"workouts": [{"name": "Traditional Strength Training", "start": "2024-02-06 7:00:00 PM -0800",
          "end": "2024-02-06 7:45:00 PM -0800", "duration": 2700,
          "activeEnergy": {"qty": 180, "units": "kcal"}, "avgHeartRate": {"qty": 118, "units": "bpm"},
          "maxHeartRate": {"qty": 150, "units": "bpm"},
          "heartRateData": [{"date": "2024-02-06 7:01:00 PM -0800", "qty": 117, "units": "count/min"}],
          "route": [{"lat": 52.5, "lon": 13.4, "altitude": 40, "timestamp": "2024-02-06 7:01:00 PM -0800"}]}]}}
        """

    @Test func aVersion2WorkoutHasItsStatisticsRouteAndHeartRate() throws {
        let items = try P.items(Self.version2)
        #expect(items.count == 3)
        guard case .record(let sample) = items[0], case .workout(let workout) = items[1],
            case .record(let heartRate) = items[2]
        else {
            Issue.record("unexpected items \(items)")
            return
        }
        #expect(P.sample(sample)?.metric == "workout")
        #expect(P.sample(sample)?.valueAsWritten == "running")
        #expect(sample.metadata.contains(MetadataEntry(key: "hae_workout_id", value: "9A1B")))
        #expect(workout.activityType == "Outdoor Run")
        #expect(workout.durationSeconds == 1795.5)
        #expect(workout.start.seconds(until: workout.end) == 1800)
        let statistics = Dictionary(uniqueKeysWithValues: workout.statistics.map { ($0.type, $0) })
        #expect(statistics["activeEnergyBurned"]?.sum == 310)
        #expect(statistics["distance"]?.unit == "km")
        #expect(statistics["intensity"]?.average == 9.1)
        #expect(statistics["heartRate"]?.minimum == 98)
        #expect(statistics["heartRate"]?.maximum == 171)
        // The point off the earth is dropped; the other keeps its speed and accuracy.
        #expect(workout.route.count == 1)
        #expect(workout.route.first?.speedMetersPerSecond == 2.8)
        #expect(P.sample(heartRate)?.value == 130)
        #expect(P.sample(heartRate)?.sourceName == "Apple Watch")
    }

    @Test func aVersion1WorkoutReadsItsOlderNames() throws {
        let items = try P.items(Self.version1)
        guard case .record(let sample) = items[0], case .workout(let workout) = items[1],
            case .record(let heartRate) = items[2]
        else {
            Issue.record("unexpected items \(items)")
            return
        }
        #expect(P.sample(sample)?.valueAsWritten == "traditional_strength_training")
        #expect(workout.statistics.contains { $0.type == "activeEnergy" && $0.sum == 180 })
        #expect(workout.statistics.contains { $0.type == "heartRate" && $0.average == 118 && $0.maximum == 150 })
        #expect(workout.route.first?.latitude == 52.5)
        #expect(workout.route.first?.elevationMeters == 40)
        #expect(P.sample(heartRate)?.value == 117)
        #expect(P.sample(heartRate)?.sourceName == HAEFields.defaultSource)
    }

    @Test func aWorkoutWithAnUnreadableDateIsQuarantinedAndMakesNoWorkout() throws {
        let items = try P.items(
            #"{"workouts": [{"name": "Outdoor Walk", "start": "yesterday", "end": "2024-02-06 18:30:00 -0800"}]}"#)
        let records = try P.records(
            #"{"workouts": [{"name": "Outdoor Walk", "start": "yesterday", "end": "2024-02-06 18:30:00 -0800"}]}"#)
        #expect(items.count == 1)
        #expect(records.count == 1)
        let reasons = records.map { record -> QuarantineReason? in
            if case .quarantined(let refused) = P.normalizer.normalize(record) { return refused.reason }
            return nil
        }
        #expect(reasons == [.unparseableDate])
    }

    @Test func theOtherSectionsBecomeRecordsOfTheirMetrics() throws {
        let body = """
            {"data": {
              "stateOfMind": [{"id": "S1", "start": "2024-02-06 21:00:00 -0800", "end": "2024-02-06 21:00:00 -0800",
                               "kind": "dailyMood", "valence": -0.3, "labels": ["Stressed", "Tired"]}],
              "symptoms": [{"start": "2024-02-06 10:00:00 -0800", "end": "2024-02-06 12:00:00 -0800",
                            "name": "Headache", "severity": "Moderate", "source": "Health"}],
              "ecg": [{"start": "2024-02-06 09:00:00 -0800", "end": "2024-02-06 09:00:30 -0800",
                       "classification": "Sinus Rhythm", "averageHeartRate": 64,
                       "voltageMeasurements": [{"voltage": 0.0001}], "source": "Apple Watch"}],
              "heartRateNotifications": [
                {"start": "2024-02-06 14:00:00 -0800", "end": "2024-02-06 14:10:00 -0800", "threshold": 120},
                {"start": "2024-02-06 03:00:00 -0800", "end": "2024-02-06 03:10:00 -0800", "threshold": 40},
                {"start": "2024-02-06 05:00:00 -0800", "end": "2024-02-06 05:10:00 -0800"}],
              "medications": [{"displayText": "Ibuprofen", "start": "2024-02-06 08:00:00 -0800", "dosage": 200}]}}
            """
        let records = try P.records(body)
        let outcomes = records.map { P.normalizer.normalize($0) }
        let metrics = outcomes.map { outcome -> String in
            switch outcome {
            case .accepted(let sample), .flagged(let sample): sample.metric
            case .quarantined(let refused): "quarantined:\(refused.reason.rawValue):\(refused.raw.type)"
            }
        }
        #expect(
            metrics == [
                "state_of_mind", "headache", "ecg", "high_heart_rate_event", "low_heart_rate_event",
                "irregular_heart_rhythm_event", "medication_dose",
            ])
        #expect(P.sample(records[0])?.value == -0.3)
        #expect(records[0].metadata.contains(MetadataEntry(key: "hae_labels", value: "Stressed|Tired")))
        #expect(P.sample(records[1])?.category == "moderate")
        #expect(records[2].metadata.contains(MetadataEntry(key: "hae_classification", value: "Sinus Rhythm")))
        #expect(!records[2].metadata.contains { $0.key == "hae_voltageMeasurements" })
    }
}
