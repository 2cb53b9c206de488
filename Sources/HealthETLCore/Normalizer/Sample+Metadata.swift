/// The two metadata entries the projections and the collector read.
extension Sample {
    /// HealthKit's `HKTimeZone`: the IANA zone the sample was recorded in.
    public var timeZone: String? { Self.timeZone(metadata) }

    /// HealthKit's `HKWasUserEntered`: typed in by hand, which outranks any device.
    public var isUserEntered: Bool { Self.isUserEntered(metadata) }

    /// `isUserEntered` of a sample with this metadata.
    static func isUserEntered(_ metadata: [MetadataEntry]) -> Bool {
        guard let flag = metadata.first(where: { $0.key == "HKWasUserEntered" })?.value.lowercased() else {
            return false
        }
        return flag == "1" || flag == "true"
    }

    /// `timeZone` of a sample with this metadata.
    static func timeZone(_ metadata: [MetadataEntry]) -> String? {
        metadata.first { $0.key == "HKTimeZone" }?.value
    }
}
