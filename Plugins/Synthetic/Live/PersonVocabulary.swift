/// The names a simulated person's sources and devices carry. Person 1 is the "Simon" of the
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

    static func sourceVersion(_ source: Source, era: SoftwareEra) -> String {
        switch source {
        case .watch: era.watchOS
        case .phone, .health: era.iOS
        case .autoSleep: "6.9.1"
        case .healthMate: "6.11.1"
        }
    }

    /// The device description without the per-export object address, as the store keeps it.
    static func device(_ source: Source, era: SoftwareEra) -> String? {
        switch source {
        case .watch:
            "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:\(era.watchHardware), software:\(era.watchOS)"
        case .phone:
            "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:\(era.phoneHardware), software:\(era.iOS)"
        default: nil
        }
    }
}
