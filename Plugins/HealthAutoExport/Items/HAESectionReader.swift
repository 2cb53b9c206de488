import HealthETLCore

/// Reads an item of the sections beside `metrics` and `workouts`: state of mind, symptoms, ECG
/// recordings, heart-rate notifications and medications. Each becomes one record (a medication
/// a `medication_dose` event whose value as written is the medication's name).
enum HAESectionReader {
    static func record(section: String, item: JSONValue) -> RawRecord {
        let source = item["source"]?.text ?? HAEFields.defaultSource
        let start = HAEFields.time(HAEFields.first(["start", "date", "startDate", "scheduledDate"], in: item))
        let end = HAEFields.time(
            HAEFields.first(["end", "endDate", "start", "date", "startDate", "scheduledDate"], in: item))
        switch section {
        case "stateOfMind":
            return RawRecord(
                type: "state_of_mind", sourceName: source, unit: "{score}", value: HAEFields.value(item["valence"]),
                start: start, end: end,
                metadata: HAEFields.extras(of: item, known: ["start", "end", "valence", "source"]))
        case "symptoms":
            // The symptom's name is its type (`Headache`); the severity its value.
            return RawRecord(
                type: item["name"]?.text ?? "symptom", sourceName: source, value: HAEFields.value(item["severity"]),
                start: start, end: end,
                metadata: HAEFields.extras(of: item, known: ["start", "end", "name", "severity", "source"]))
        case "ecg":
            // The voltages are not kept: the recording's classification and rate are.
            return RawRecord(
                type: "ecg", sourceName: source, value: .absent, start: start, end: end,
                metadata: HAEFields.extras(of: item, known: ["start", "end", "source", "voltageMeasurements"]))
        case "heartRateNotifications":
            return RawRecord(
                type: notificationMetric(item), sourceName: source, value: .absent, start: start, end: end,
                metadata: HAEFields.extras(of: item, known: ["start", "end", "source"]))
        default:
            return RawRecord(
                type: section == "medications" ? "medication" : section, sourceName: source,
                value: HAEFields.value(HAEFields.first(["displayText", "name", "nickname"], in: item)),
                start: start, end: end, metadata: HAEFields.extras(of: item, known: ["source"]))
        }
    }

    /// Which notification an item is. Apple's high-rate thresholds run from 100 to 150 bpm and its
    /// low-rate ones from 40 to 50; a notification without a threshold is an irregular rhythm.
    static func notificationMetric(_ item: JSONValue) -> String {
        guard let threshold = item["threshold"]?.text.flatMap(Double.init) else {
            return "irregular_heart_rhythm_event"
        }
        return threshold >= 75 ? "high_heart_rate_event" : "low_heart_rate_event"
    }
}
