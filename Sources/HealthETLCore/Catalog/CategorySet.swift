/// The values a category metric can take: source spellings mapped to canonical snake_case values.
///
/// Canonical values are accepted as written too, so adapters that already speak them
/// (the synthetic source, Health Connect's numeric stages mapped by its adapter) need no entry.
public struct CategorySet: Hashable, Sendable, Codable {
    /// Source spelling → canonical value, e.g. `HKCategoryValueSleepAnalysisAsleepREM` → `asleep_rem`.
    public var values: [String: String]

    public init(values: [String: String]) {
        self.values = values
    }

    /// The canonical values, sorted.
    public var canonicalValues: [String] {
        Array(Set(values.values)).sorted()
    }
}
