import Foundation

/// The one form a name is stored in: Unicode NFC, without NUL characters. `Simon’s iPhone` typed
/// on two devices may arrive composed on one and decomposed on the other; stored as given they
/// would be two sources (and two ids for one sample), and a NUL cuts a name short in C.
public enum CanonicalText {
    /// `text` in canonical form; the same string, without copying, when it is already (nearly
    /// every name is, so that is checked first, cheaply: this runs for every record).
    public static func of(_ text: String) -> String {
        if isCanonical(text) { return text }
        return text.precomposedStringWithCanonicalMapping.replacingOccurrences(of: "\u{0}", with: "")
    }

    public static func of(_ text: String?) -> String? {
        text.map { of($0) }
    }

    /// Whether every character is one NFC leaves alone: ASCII other than NUL, or a scalar from a
    /// block with no decomposable or combining characters (Latin-1 and Latin Extended, Cyrillic,
    /// general punctuation such as ’, CJK ideographs, emoji). Anything else takes the slow path,
    /// which is always right.
    static func isCanonical(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { isCanonical(utf8: $0) }
            ?? text.unicodeScalars.allSatisfy { isCanonical(UTF8.encode($0)) }
    }

    private static func isCanonical(_ encoded: UTF8.EncodedScalar?) -> Bool {
        guard let encoded else { return false }
        return Array(encoded).withUnsafeBufferPointer { isCanonical(utf8: $0) }
    }

    /// The check on UTF-8: eight ASCII bytes at a time, other sequences by their leading bytes.
    private static func isCanonical(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let hasNUL = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
                if word & 0x8080_8080_8080_8080 == 0, !hasNUL {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                guard lead != 0 else { return false }
                index += 1
                continue
            }
            let width = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + width <= bytes.count else { return false }
            let second = bytes[index + 1]
            let third = width > 2 ? bytes[index + 2] : 0
            let stable: Bool
            switch lead {
            case 0xC2...0xCB, 0xD0...0xD3: stable = true  // U+0080–U+02FF, U+0400–U+04FF
            case 0xE2: stable = second == 0x80 && (0x90...0xA7).contains(third)  // U+2010–U+2027
            case 0xE4: stable = second >= 0xB8  // U+4E00–U+4FFF
            case 0xE5...0xE9: stable = true  // U+5000–U+9FFF
            case 0xF0: stable = second == 0x9F && (0x8C...0xAB).contains(third)  // U+1F300–U+1FAFF
            default: stable = false
            }
            guard stable else { return false }
            index += width
        }
        return true
    }
}
