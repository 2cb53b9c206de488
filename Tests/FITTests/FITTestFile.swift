@testable import Synthetic

/// FIT files for the decoder's tests, laid out with the generator's encoder (written apart from
/// the decoder, and itself checked against fitdecode): a device, then heart-rate records.
enum FITTestFile {
    typealias Field = Synthetic.FITFieldDefinition

    static let fileID = Synthetic.FITMessageDefinition(
        "file_id", 0, [Field(0, .enumeration), Field(1, .uint16), Field(2, .uint16), Field(4, .uint32)])
    static func record(bigEndian: Bool = false) -> Synthetic.FITMessageDefinition {
        Synthetic.FITMessageDefinition("record", 20, [Field(253, .uint32), Field(3, .uint8)], bigEndian: bigEndian)
    }
    /// 2026-01-01T00:00:00Z in Unix seconds.
    static let start: Int64 = 1_767_225_600

    /// A Garmin fenix 5 activity file with `count` one-second heart-rate records (60, 61, …).
    static func heartRates(_ count: Int, bigEndian: Bool = false) -> [UInt8] {
        var encoder = FITFileEncoder()
        encoder.define(0, fileID)
        encoder.write(0, [0: .int(4), 1: .int(1), 2: .int(2697), 4: .time(start)])
        encoder.define(1, record(bigEndian: bigEndian))
        for second in 0..<count {
            encoder.write(1, [253: .time(start + Int64(second)), 3: .int(Int64(60 + second % 100))])
        }
        return encoder.finished()
    }
}
