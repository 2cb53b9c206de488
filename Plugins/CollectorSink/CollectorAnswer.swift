/// A successful (2xx, or a status the caller accepts) answer of the collector, its body read
/// within the size cap.
struct CollectorAnswer: Sendable {
    let status: Int
    let body: [UInt8]
    /// The `ETag` header, on projection answers.
    var etag: String? = nil
    /// `Idempotent-Replayed: true`: the collector had stored this batch already.
    let replayed: Bool
    /// The `Date` header: the collector's clock.
    var date: String? = nil
}
