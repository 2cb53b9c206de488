import Foundation

/// Names the FIT profile gives enum values the import shows: manufacturers, Garmin's products,
/// sports and sub-sports (`Resources/fit-profile-names.json`, from the published profile).
struct FITProfileNames: Sendable, Decodable {
    let manufacturer: [String: String]
    let garminProduct: [String: String]
    let sport: [String: String]
    let subSport: [String: String]

    private enum CodingKeys: String, CodingKey {
        case manufacturer, sport
        case garminProduct = "garmin_product"
        case subSport = "sub_sport"
    }

    /// The bundled table, read once.
    static let bundled: FITProfileNames = {
        guard let url = Bundle.module.url(forResource: "fit-profile-names", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let names = try? JSONDecoder().decode(FITProfileNames.self, from: data)
        else {
            // The build bundles the file; without it values read as their numbers.
            return FITProfileNames(manufacturer: [:], garminProduct: [:], sport: [:], subSport: [:])
        }
        return names
    }()

    init(
        manufacturer: [String: String], garminProduct: [String: String], sport: [String: String],
        subSport: [String: String]
    ) {
        self.manufacturer = manufacturer
        self.garminProduct = garminProduct
        self.sport = sport
        self.subSport = subSport
    }
}
