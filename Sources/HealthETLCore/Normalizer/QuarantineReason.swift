/// Why a record could not be stored as a sample. Quarantined records keep their raw form.
public enum QuarantineReason: String, Sendable, Codable, CaseIterable {
    /// No catalog metric has the record's type.
    case unknownType = "unknown_type"
    /// A start or end date is not a date-time healthetl understands.
    case unparseableDate = "unparseable_date"
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
}
