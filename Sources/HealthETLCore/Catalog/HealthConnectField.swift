/// Where a metric lives in a Health Connect export's database: a record type's table and column,
/// the unit that column is stored in, and for enum columns what each stored number means.
///
/// ```json
/// {"record": "NutritionRecord", "table": "nutrition_record_table", "field": "protein", "unit": "g"}
/// {"record": "SleepSessionRecord", "table": "sleep_stages_table", "field": "stage_type",
///  "values": {"1": "awake", "4": "asleep_core"}}
/// ```
///
/// A plain string (`"HeartRate"`, the older catalog form) names the record alone.
public struct HealthConnectField: Hashable, Sendable, Codable {
    /// The record type, e.g. `StepsRecord`.
    public var record: String
    /// The table holding the column (the record's own table, or a child table for series and stages).
    public var table: String?
    /// The column.
    public var field: String?
    /// The unit the column is stored in; a spelling of the metric's unit set (quantities).
    public var unit: String?
    /// Stored number (as text) → canonical category value, for enum columns.
    public var values: [String: String]

    public init(
        record: String, table: String? = nil, field: String? = nil, unit: String? = nil,
        values: [String: String] = [:]
    ) {
        self.record = record
        self.table = table
        self.field = field
        self.unit = unit
        self.values = values
    }

    /// The name this mapping gives the metric: `Record.field`, or the record alone.
    public var identifier: String {
        field.map { "\(record).\($0)" } ?? record
    }

    private enum CodingKeys: String, CodingKey {
        case record, table, field, unit, values
    }

    public init(from decoder: any Decoder) throws {
        if let record = try? decoder.singleValueContainer().decode(String.self) {
            self.init(record: record)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            record: try c.decode(String.self, forKey: .record),
            table: try c.decodeIfPresent(String.self, forKey: .table),
            field: try c.decodeIfPresent(String.self, forKey: .field),
            unit: try c.decodeIfPresent(String.self, forKey: .unit),
            values: try c.decodeIfPresent([String: String].self, forKey: .values) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(record, forKey: .record)
        try c.encodeIfPresent(table, forKey: .table)
        try c.encodeIfPresent(field, forKey: .field)
        try c.encodeIfPresent(unit, forKey: .unit)
        if !values.isEmpty { try c.encode(values, forKey: .values) }
    }
}
