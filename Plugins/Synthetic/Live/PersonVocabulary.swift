/// The names a simulated person's sources carry. Person 1 is the "Simon" of the
/// sample exports; the others get names of their own, so people never share a source.
struct PersonVocabulary {
    private static let names = ["Simon", "Ana", "Kenji", "Amara", "Lars", "Priya", "Mateo", "Zoe"]

    let owner: String

    init(person: Int) {
        let index = (person - 1) % Self.names.count
        owner = Self.names[index] + (person > Self.names.count ? " \(person)" : "")
    }

    func sourceName(_ source: Source) -> String {
        switch source {
        case .watch: "\(owner)\u{2019}s Apple Watch"
        case .phone: "\(owner)\u{2019}s iPhone"
        default: source.name
        }
    }
}
