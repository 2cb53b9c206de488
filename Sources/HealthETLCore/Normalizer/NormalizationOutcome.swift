/// What the normalizer decided about one record.
public enum NormalizationOutcome: Hashable, Sendable {
    case accepted(Sample)
    /// Accepted and stored, with `sample.flags` saying why a person may want to look at it.
    case flagged(Sample)
    case quarantined(QuarantinedRecord)
}
