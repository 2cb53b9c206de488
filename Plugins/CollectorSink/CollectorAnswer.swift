/// A successful (2xx) answer of the collector, its body read within the size cap.
struct CollectorAnswer: Sendable {
    let status: Int
    let body: [UInt8]
    /// `Idempotent-Replayed: true`: the collector had stored this batch already.
    let replayed: Bool
}
