import Foundation
import HealthETLCore

/// Reads an ECG recording (`electrocardiograms/ecg_YYYY-MM-DD.csv`): a header of `Key,Value`
/// lines, a blank line, the lead and unit, then one voltage per line.
enum ECGReader {
    /// Header keys that identify the person rather than the recording; not stored.
    static let personalKeys: Set<String> = ["Name", "Date of Birth"]
    /// Sample rates a recording may have, in hertz (the Watch writes 512): outside these the
    /// recording's length is meaningless, and far outside them it overflows.
    static let plausibleSampleRates: ClosedRange<Double> = 1...100_000

    struct Recording {
        var document: ExportDocument
        var record: RawRecord?
    }

    static func read(_ bytes: [UInt8], path: String) -> Recording {
        let text = String(decoding: bytes, as: UTF8.self)
        var header: [MetadataEntry] = []
        var voltages: [String] = []
        for line in text.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        {
            if let comma = line.firstIndex(of: ",") {
                let key = String(line[..<comma]).trimmingCharacters(in: .whitespaces)
                var value = String(line[line.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                if !personalKeys.contains(key) { header.append(MetadataEntry(key: key, value: value)) }
            } else if Double(line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")) != nil
            {
                voltages.append(String(line).trimmingCharacters(in: .whitespaces))
            }
        }
        let recorded = header.first { $0.key == "Recorded Date" }.flatMap { TimestampParser.parse($0.value) }
        let writtenRate = header.first { $0.key == "Sample Rate" }?.value
        let rate = writtenRate.flatMap { Double($0.split(separator: " ").first ?? "") }
        var end = recorded?.instant
        var endAsWritten: String?
        if let start = recorded?.instant, let rate {
            if plausibleSampleRates.contains(rate) {
                end = Instant(
                    millisecondsSinceEpoch: start.millisecondsSinceEpoch + Int64(Double(voltages.count) / rate * 1000))
            } else {
                // No end can be worked out: the record goes to quarantine with the rate as written.
                end = nil
                endAsWritten = "Sample Rate \(writtenRate ?? "")"
            }
        }
        let body =
            "{\"file\":\(JSONText.quoted(path)),\"header\":\(JSONText.pairs(header)),\"voltages\":["
            + voltages.joined(separator: ",") + "]}"
        let document = ExportDocument(kind: "ecg", start: recorded?.instant, end: end, sourceName: nil, body: body)
        guard let recorded else { return Recording(document: document, record: nil) }
        let record = RawRecord(
            type: "HKDataTypeIdentifierElectrocardiogram", sourceName: "Apple Watch",
            sourceVersion: header.first { $0.key == "Software Version" }?.value,
            device: header.first { $0.key == "Device" }?.value,
            value: header.first { $0.key == "Classification" }.map { .text($0.value) } ?? .absent,
            start: .timestamp(recorded),
            end: end.map { .timestamp(Timestamp(instant: $0, utcOffsetSeconds: recorded.utcOffsetSeconds)) }
                ?? .text(endAsWritten ?? ""),
            metadata: header.filter {
                $0.key == "Symptoms" || $0.key == "Lead" || $0.key == "Unit" || $0.key == "Sample Rate"
            })
        return Recording(document: document, record: record)
    }
}
