/// Stored now; stored before (a resend of the same batch); refused.
enum IngestOutcome: String, CaseIterable {
    case stored, duplicate, rejected
}
