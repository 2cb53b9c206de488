import Foundation
import Testing

@testable import HealthETLCore

/// `PlainDecimal` reads the plainest decimals itself and must give exactly what `strtod` gives
/// (the oracle here, as the C library reads them), and leave every other spelling to it.
@Suite struct PlainDecimalTests {
    func plain(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { PlainDecimal.value($0) }
    }

    func strtodValue(_ text: String) -> Double? {
        text.withCString { start in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            return end == UnsafeMutablePointer(mutating: start) + text.utf8.count ? value : nil
        }
    }

    @Test(arguments: [
        "0", "-0", "72", "007", "5.", ".5", "-.5", "0.1", "0.000", "37.25", "-118.4351", "123456789012345",
        "0.000000000000000000001", "99999999999999.9", "1.00000000000002", "0.3", "2.675", "-1234.5678",
    ])
    func readsWhatStrtodReads(text: String) throws {
        let value = try #require(plain(text))
        let expected = try #require(strtodValue(text))
        #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) vs strtod's \(expected)")
    }

    @Test(arguments: [
        "", "-", ".", "-.", "1.2.3", "1e5", "+5", " 5", "5 ", "nan", "inf", "0x1p3", "1,5", "--1",
        "1234567890123456",  // 16 significant digits
        "0.00000000000000000000001",  // 23 after the point
    ])
    func leavesOtherSpellingsToStrtod(text: String) {
        #expect(plain(text) == nil)
    }

    /// Random plain decimals of 1 to 15 significant digits, the point anywhere: bit for bit strtod's.
    @Test func agreesWithStrtodOnRandomDecimals() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...15, using: &generator)
            var digits = String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...count, using: &generator)
            if point < count || Bool.random(using: &generator) {
                digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point))
            }
            let text = (Bool.random(using: &generator) ? "-" : "") + digits
            let value = try #require(plain(text), "\(text)")
            let expected = try #require(strtodValue(text))
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) vs strtod's \(expected)")
        }
    }
}
