/// The device a FIT file comes from (its `file_id`): the samples' source and device, written so
/// that the default source priority ranks a watch as a watch.
struct FITDevice: Sendable, Equatable {
    /// `Garmin fenix5`, `Wahoo Fitness product 31`.
    let sourceName: String
    /// `Garmin fenix5 (watch), serial 3921234567`.
    let description: String

    /// Garmin's product ids count for Garmin's own partners' devices too (the profile's rule).
    private static let garminFamily: Set<UInt64> = [1, 13, 15, 89]
    /// Product names of Garmin's wrist-worn lines.
    private static let watchWords = [
        "fenix", "fr", "forerunner", "vivoactive", "vivosmart", "vivofit", "vivomove", "vivo_", "venu", "instinct",
        "epix", "enduro", "marq", "descent", "approach_s", "tactix", "quatix", "lily", "swim", "d2", "bishop",
    ]
    /// Makers whose FIT files come from watches.
    private static let watchMakers: Set<String> = ["coros", "polar_electro", "suunto"]

    init(manufacturer: UInt64?, product: UInt64?, productName: String?, serial: UInt64?, names: FITProfileNames) {
        let maker = manufacturer.map { names.manufacturer[String($0)] ?? "manufacturer \($0)" } ?? "unknown maker"
        var productText = productName
        if productText == nil, let product {
            let isGarmin = manufacturer.map(Self.garminFamily.contains) ?? false
            productText = (isGarmin ? names.garminProduct[String(product)] : nil) ?? "product \(product)"
        }
        let makerText = Self.displayName(maker)
        sourceName = [makerText, productText].compactMap { $0 }.joined(separator: " ")
        let product = (productText ?? "").lowercased()
        let isWatch =
            Self.watchMakers.contains(maker)
            || (maker == "garmin" && Self.watchWords.contains { product.hasPrefix($0) || product.contains("_" + $0) })
        description =
            sourceName + (isWatch ? " (watch)" : "") + (serial.map { ", serial \($0)" } ?? "")
    }

    /// `wahoo_fitness` → `Wahoo Fitness`.
    private static func displayName(_ snake: String) -> String {
        snake.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
