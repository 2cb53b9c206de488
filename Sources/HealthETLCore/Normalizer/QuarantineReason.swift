/// Why a record could not be stored as a sample. Quarantined records keep their raw form.
public enum QuarantineReason: String, Sendable, Codable, CaseIterable {
    /// No catalog metric has the record's type.
    case unknownType = "unknown_type"
    /// A start or end date is not a date-time healthetl understands.
    case unparseableDate = "unparseable_date"
    /// A time a device counted from its own power-up, not from a date (FIT below 0x10000000).
    case deviceRelativeTime = "device_relative_time"
    /// The value is not a finite number (quantities).
    case unparseableValue = "unparseable_value"
    /// The metric needs a value and the record has none.
    case missingValue = "missing_value"
    /// A quantity record with no unit.
    case missingUnit = "missing_unit"
    /// The unit is not one the metric's unit set accepts.
    case unknownUnit = "unknown_unit"
    /// The value is not one of the metric's category values.
    case unknownCategoryValue = "unknown_category_value"
    /// The value breaks a hard limit: it cannot be physical.
    case hardLimit = "hard_limit"
    /// The record ends before it starts.
    case endBeforeStart = "end_before_start"
    /// A date before 1900 or from 2200 on (`SampleBounds.instants`).
    case dateOutOfRange = "date_out_of_range"
    /// A UTC offset beyond ±18:00.
    case utcOffsetOutOfRange = "utc_offset_out_of_range"
    /// The record spans longer than its metric's longest sample (`SampleBounds.longestSpan`).
    case spanTooLong = "span_too_long"
}

extension QuarantineReason {
    init(_ violation: SampleBounds.Violation) {
        switch violation {
        case .dateOutOfRange: self = .dateOutOfRange
        case .utcOffsetOutOfRange: self = .utcOffsetOutOfRange
        case .spanTooLong: self = .spanTooLong
        }
    }
}
