/// The two metadata entries the projections and the collector read.
extension Sample {
    /// HealthKit's `HKTimeZone`: the IANA zone the sample was recorded in.
    public var timeZone: String? {
        metadata.first { $0.key == "HKTimeZone" }?.value
    }

    /// HealthKit's `HKWasUserEntered`: typed in by hand, which outranks any device.
    public var isUserEntered: Bool {
        guard let flag = metadata.first(where: { $0.key == "HKWasUserEntered" })?.value.lowercased() else {
            return false
        }
        return flag == "1" || flag == "true"
    }
}
