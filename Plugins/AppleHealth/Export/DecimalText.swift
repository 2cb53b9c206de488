import Foundation
import HealthETLCore

/// Decimal numbers read straight from attribute or text bytes, without making a `String`.
enum DecimalText {
    /// The number the bytes spell (at most 63 of them, as `strtod` reads them), or `nil`.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count < 64 else { return nil }
        if let plain = PlainDecimal.value(bytes) { return plain }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[bytes.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard end == buffer.baseAddress! + bytes.count, value.isFinite else { return nil }
            return value
        }
    }
}
