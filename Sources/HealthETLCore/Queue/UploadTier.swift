/// The three uploaders; lower tiers drain first.
public enum UploadTier: Int, Sendable, CaseIterable, Codable, Comparable {
    /// Real time: tier-1 metrics of the hot lane, sent right after they commit.
    case realTime = 1
    /// The nightly batch run (`healthetl upload`).
    case batch = 2
    /// Catch-up (`healthetl sync --catch-up`): the window re-sent.
    case catchUp = 3

    public static func < (lhs: UploadTier, rhs: UploadTier) -> Bool { lhs.rawValue < rhs.rawValue }
}
