import Foundation
import HealthETLCore

/// Writes small Apple Health `export.xml` files for tests: real format, chosen content.
public struct ExportXMLBuilder {
    public var exportDate: String
    private var body: [String] = []

    public init(exportDate: String = "2024-06-01 09:00:00 +0200") {
        self.exportDate = exportDate
    }

    /// A heart-rate record `index` minutes after 2024-03-01 08:00 +0100.
    public static func heartRate(_ index: Int, value: Int = 60, source: String = "Simon’s Apple Watch") -> String {
        let date = appleDate(Instant(secondsSinceEpoch: 1_709_276_400 + Int64(index) * 60))
        return "<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"\(source)\" sourceVersion=\"10.3\""
            + " device=\"&lt;&lt;HKDevice: 0x28\(String(index, radix: 16))&gt;, name:Apple Watch, manufacturer:Apple Inc.,"
            + " model:Watch, hardware:Watch6,2, software:10.3&gt;\" unit=\"count/min\" creationDate=\"\(date)\""
            + " startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(value + index % 40)\">\n"
            + "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n</Record>"
    }

    /// Apple's spelling of an instant at +01:00: `2024-03-01 08:00:00 +0100`.
    public static func appleDate(_ instant: Instant) -> String {
        let iso = instant.iso8601(utcOffsetSeconds: 3600)  // 2024-03-01T08:00:00.000+01:00
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " +0100"
    }

    public mutating func add(_ element: String) {
        body.append(element)
    }

    public mutating func addHeartRates(_ range: Range<Int>) {
        for index in range { body.append(Self.heartRate(index)) }
    }

    public var xml: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">
         <ExportDate value="\(exportDate)"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

        """ + body.joined(separator: "\n") + "\n</HealthData>\n"
    }

    public func write(to path: String) throws {
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
