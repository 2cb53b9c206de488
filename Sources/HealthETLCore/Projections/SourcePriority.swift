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
    /// A summary never outranks a measurement, preferred or not. A name that joins several
    /// sources with `|` (Health Auto Export's `Watch|iPhone`) ranks as its best-placed part.
    public func rank(of sample: Sample) -> SourceRank {
        let sourceClass = SourcePriority.sourceClass(of: sample)
        return SourceRank(
            preferredPosition: sourceClass == .summary ? nil : preferredPosition(of: sample.sourceName),
            sourceClass: sourceClass,
            sourceName: sample.sourceName)
    }

    private func preferredPosition(of name: String) -> Int? {
        if let position = preferred.firstIndex(of: name) { return position }
        guard name.utf8.contains(UInt8(ascii: "|")) else { return nil }
        return name.split(separator: "|").compactMap { preferred.firstIndex(of: String($0)) }.min()
    }

    /// The default tier of a sample: a summary if it is one, manual if the source says the user entered it, else watch or
    /// phone if the source name or the device string says so, else another app.
    public static func sourceClass(of sample: Sample) -> SourceClass {
        if sample.flags.contains(.summarized) { return .summary }
        if sample.isUserEntered { return .manual }
        return sourceClass(sourceName: sample.sourceName, device: sample.device)
    }

    /// The rank of a source that recorded something other than a sample (a workout).
    public func rank(sourceName: String, device: String?) -> SourceRank {
        SourceRank(
            preferredPosition: preferredPosition(of: sourceName),
            sourceClass: Self.sourceClass(sourceName: sourceName, device: device), sourceName: sourceName)
    }

    /// Watch or phone if the source name or the device string says so, else another app.
    static func sourceClass(sourceName: String, device: String?) -> SourceClass {
        let descriptions = [sourceName, device ?? ""]
        if descriptions.contains(where: { mentions("watch", in: $0) }) { return .watch }
        if descriptions.contains(where: { mentions("phone", in: $0) }) { return .phone }
        return .other
    }

    /// Whether `text` contains `word` (lowercase ASCII) in any ASCII case. Every sample's strings
    /// are searched, so this stays a byte scan rather than Foundation's Unicode-aware search.
    static func mentions(_ word: String, in text: String) -> Bool {
        let needle = Array(word.utf8)
        var text = text
        return text.withUTF8 { haystack in
            guard haystack.count >= needle.count else { return false }
            return (0...(haystack.count - needle.count)).contains { offset in
                needle.indices.allSatisfy { asciiLowercased(haystack[offset + $0]) == needle[$0] }
            }
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
