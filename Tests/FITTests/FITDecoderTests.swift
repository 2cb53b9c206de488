import Foundation
import HealthETLCore
import HealthETLFIT
import Testing

@testable import FIT

/// The decoder's reading of the protocol's free choices: byte order, time headers, invalid values.
struct FITDecoderTests {
    @Test func bigAndLittleEndianDefinitionsReadTheSameValues() throws {
        let little = try FITReadResult.read(bytes: FITTestFile.heartRates(40))
        let big = try FITReadResult.read(bytes: FITTestFile.heartRates(40, bigEndian: true))
        #expect(little.records.count == 40)
        #expect(little.records.map(\.value) == big.records.map(\.value))
        #expect(little.records.map(\.start) == big.records.map(\.start))
        #expect(little.records.first?.value == .number(60))
        #expect(little.records.first?.sourceName == "Garmin fenix5")
        #expect(little.records.first?.device == "Garmin fenix5 (watch)")
    }

    /// A compressed header's 5-bit offset moves the last time on, rolling over every 32 s.
    @Test func compressedTimestampsRollOverEvery32Seconds() {
        #expect(FITMessageDecoder.advance(100, by: 100 & 0x1F) == 100)
        #expect(FITMessageDecoder.advance(0x1E, by: 0x01) == 0x21)
        #expect(FITMessageDecoder.advance(0x3F, by: 0x1F) == 0x3F)
        #expect(FITMessageDecoder.advance(0x3F, by: 0x00) == 0x40)
        #expect(FITMessageDecoder.advance(UInt32.max, by: 0) == 0)
    }

    /// Every base type's invalid pattern reads as absent; a field declared shorter than its type
    /// (as some Coros files do) reads as absent rather than past its end.
    @Test func invalidValuesAndShortFieldsReadAsAbsent() throws {
        let fields: [(FITBaseType, [UInt8])] = [
            (.uint8, [0xFF]), (.sint8, [0x7F]), (.uint16, [0xFF, 0xFF]), (.sint16, [0xFF, 0x7F]),
            (.uint32, [0xFF, 0xFF, 0xFF, 0xFF]), (.sint32, [0xFF, 0xFF, 0xFF, 0x7F]), (.uint16z, [0, 0]),
            (.float32, [0xFF, 0xFF, 0xFF, 0xFF]), (.enumeration, [0xFF]),
        ]
        for (type, bytes) in fields {
            let layout = FITMessageLayout(
                globalNumber: 20, bigEndian: false,
                fields: [FITFieldLayout(number: 3, offset: 0, size: bytes.count, type: type)], developerBytes: 0)
            bytes.withUnsafeBytes { raw in
                let message = FITMessage(layout: layout, bytes: raw, timestamp: nil)
                #expect(message.number(3) == nil, "\(type)")
            }
        }
        let short = FITMessageLayout(
            globalNumber: 20, bigEndian: false, fields: [FITFieldLayout(number: 3, offset: 0, size: 3, type: .uint32)],
            developerBytes: 0)
        [UInt8]([1, 2, 3]).withUnsafeBytes { raw in
            #expect(FITMessage(layout: short, bytes: raw, timestamp: nil).number(3) == nil)
        }
    }

    @Test func chainedFilesAreReadOneAfterAnother() throws {
        let result = try FITReadResult.read(bytes: FITTestFile.heartRates(10) + FITTestFile.heartRates(5))
        #expect(result.report.complete)
        // The second file repeats the first one's first five seconds: handed on again, stored once (same ids).
        #expect(result.records.count == 15)
        #expect(try FITReadResult.messages(in: FITTestFile.heartRates(10) + FITTestFile.heartRates(5)).files == 2)
    }
}
