/// A source adapter's verdict on an input.
public enum SourceRecognition: Sendable, Equatable {
    case recognized
    /// Not this adapter's kind of input, and why (`gzip-compressed`, `no <HealthData> root`, …).
    case notRecognized(reason: String)
}
