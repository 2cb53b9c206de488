/// What a batch carries, counted separately.
enum IngestItem: String, CaseIterable {
    case batches, samples, deletions

    var help: String {
        switch self {
        case .batches: "Batches (or pushes) received, per outcome."
        case .samples: "Samples received, per outcome."
        case .deletions: "Deletions received, per outcome."
        }
    }
}
