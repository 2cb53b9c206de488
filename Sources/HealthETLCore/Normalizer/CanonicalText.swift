import Foundation

/// The one form a name is stored in: Unicode NFC, without NUL characters. `Simon’s iPhone` typed
/// on two devices may arrive composed on one and decomposed on the other; stored as given they
/// would be two sources (and two ids for one sample), and a NUL cuts a name short in C.
public enum CanonicalText {
    /// `text` in canonical form; the same string, without copying, when it is already (nearly
    /// every name is, so that is checked first, cheaply).
    public static func of(_ text: String) -> String {
        if isCanonical(text) { return text }
        return text.precomposedStringWithCanonicalMapping.replacingOccurrences(of: "\u{0}", with: "")
    }

    public static func of(_ text: String?) -> String? {
        text.map { of($0) }
    }

    /// Whether every character is one NFC leaves alone: ASCII other than NUL, or a scalar from a
    /// block with no decomposable or combining characters. Anything else takes the slow path,
    /// which is always right.
    static func isCanonical(_ text: String) -> Bool {
        let utf8 = text.utf8
        if let ascii = utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy { $0 &- 1 < 0x7F } }),
            ascii
        {
            return true
        }
        return text.unicodeScalars.allSatisfy { scalar in
            let value = scalar.value
            return (value > 0 && value < 0x300) || (0x400...0x4FF).contains(value)
                || (0x2010...0x2027).contains(value) || (0x4E00...0x9FFF).contains(value)
                || (0x1F300...0x1FAFF).contains(value)
        }
    }
}
