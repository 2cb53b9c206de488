/// A morning blood pressure measurement: a correlation of a systolic and a diastolic Record.
struct BloodPressureReading {
    let time: Int64
    let created: Int64
    let systolic: Int64
    let diastolic: Int64
    /// Typed in by hand in the Health app, not measured by the cuff's app.
    let manual: Bool
    let noise: UInt64
}
