/// One column whose value repeats row after row (a source, a device, an app version): its
/// escaped form is kept and copied while the value stays the same, instead of escaped again.
struct RepeatedField {
    private var last: String?
    private var escaped: [UInt8] = []
    private let escape: (String, inout [UInt8]) -> Void

    /// - Parameter escape: writes a value as the format needs it (quoted CSV, a JSON string).
    init(escape: @escaping (String, inout [UInt8]) -> Void) {
        self.escape = escape
    }

    mutating func append(_ value: String, to bytes: inout [UInt8]) {
        if value != last {
            escaped.removeAll(keepingCapacity: true)
            escape(value, &escaped)
            last = value
        }
        bytes.append(contentsOf: escaped)
    }
}
