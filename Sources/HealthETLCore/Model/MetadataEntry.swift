/// A key/value annotation a source attached to a record (`HKTimeZone`, `HKWasUserEntered`, …).
public struct MetadataEntry: Hashable, Sendable, Codable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
