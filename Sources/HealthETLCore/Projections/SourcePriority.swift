/// Decides which source counts where several measured the same time.
///
/// Overlapping sources are all stored (a watch and a phone both count steps); the projections keep
/// only the best source in each time slice, as Apple Health and Health Connect do. Names listed in
/// `preferred` come first, in their order; then the default tiers of `SourceClass`; ties between
/// sources of one tier go to the source name, so a result never depends on input order.
public struct SourcePriority: Hashable, Sendable, Codable {
    /// Source names, best first, that rank ahead of every tier (`["Oura"]`). Matched exactly.
    public var preferred: [String]

    public init(preferred: [String] = []) {
        self.preferred = preferred
    }

    /// The rank of a sample's source; lower wins.
    public func rank(of sample: Sample) -> SourceRank {
        SourceRank(
            preferredPosition: preferred.firstIndex(of: sample.sourceName),
            sourceClass: SourcePriority.sourceClass(of: sample),
            sourceName: sample.sourceName)
    }

    /// The default tier of a sample: manual if the source says the user entered it, else watch or
    /// phone if the source name or the device string says so, else another app.
    public static func sourceClass(of sample: Sample) -> SourceClass {
        if sample.isUserEntered { return .manual }
        let descriptions = [sample.sourceName, sample.device ?? ""].map { $0.lowercased() }
        if descriptions.contains(where: { $0.contains("watch") }) { return .watch }
        if descriptions.contains(where: { $0.contains("phone") }) { return .phone }
        return .other
    }
}
