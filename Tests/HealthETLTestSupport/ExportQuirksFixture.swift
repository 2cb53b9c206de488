import Foundation

/// A small Apple Health export the tests write themselves, holding every quirk the real exports
/// in `../shared/real-exports` (and users' reports) show, so a clean clone still tests each path:
///
/// - the main file's name is localized (`apple_health_export/导出.xml`), beside a decoy
///   `export_cda.xml` and the `__MACOSX/` entries a Mac adds;
/// - its DTD is broken the way iOS 16's is: an unclosed ATTLIST, a stray attribute line and an
///   extra `>` before `]>`;
/// - distances in `mi`, as a Record and as a workout statistic;
/// - HRV beat times with a decimal comma, in 12-hour (`7:53:55,83 PM`) and 24-hour form;
/// - a workout route in `workout-routes/*.gpx`, referenced by `FileReference`;
/// - an `Audiogram` with `SensitivityPoint`s;
/// - an ECG recording in `electrocardiograms/*.csv`.
///
/// The expected values below were worked out by hand from the text, not by running the importer.
public enum ExportQuirksFixture {
    public static let folderName = "apple_health_export"
    public static let mainFileName = "导出.xml"
    public static let routeReference = "/workout-routes/route_2024-03-02_8.41am.gpx"
    public static let ecgFileName = "ecg_2024-03-02.csv"

    /// The export date, `2024-03-05 09:00:00 +0100`.
    public static let exportDateMilliseconds: Int64 = 1_709_625_600_000
    /// Top-level elements under `<HealthData>`, by name.
    public static let topLevel = [
        "ExportDate": 1, "Me": 1, "Record": 3, "Workout": 1, "ActivitySummary": 1, "Audiogram": 1,
    ]
    /// Every element in the main file, `HealthData` included.
    public static let elementCount = 28
    /// `<Record ` start tags in the main file, and the 1-based line of the first `</Record>`.
    public static let recordTags = 3
    public static let firstRecordEndLine = 42

    /// The walk's distance, `1.25 mi`, in metres (1.25 × 1609.344).
    public static let distanceMiles = 1.25
    public static let distanceMeters = 2011.68
    /// The HRV records' beats as (epoch milliseconds, bpm): `7:53:55,83 PM` on 2024-03-02 at
    /// +01:00 is 18:53:55.830 UTC, and `00:20:37,80` on 2024-03-03 is 23:20:37.800 UTC the day before.
    public static let eveningBeats: [(milliseconds: Int64, bpm: Double)] = [
        (1_709_405_635_830, 61), (1_709_405_636_790, 63), (1_709_405_637_760, 62),
    ]
    public static let midnightBeats: [(milliseconds: Int64, bpm: Double)] = [
        (1_709_421_637_800, 58), (1_709_421_638_840, 57),
    ]
    /// Track points in the GPX file, 100 s apart from 07:21:00 UTC.
    public static let routePoints = 12
    public static let firstRoutePointMilliseconds: Int64 = 1_709_360_460_000
    public static let routePointSpacingMilliseconds: Int64 = 100_000
    /// Audiogram frequencies, in Hz.
    public static let audiogramFrequencies = [250, 500, 1000, 2000, 4000, 8000]
    /// ECG voltages: 3 s at 512 Hz, recorded from `2024-03-02 09:12:44 +0100`.
    public static let ecgVoltages = 1536
    public static let ecgStartMilliseconds: Int64 = 1_709_367_164_000
    public static let ecgEndMilliseconds: Int64 = 1_709_367_167_000
    public static let ecgClassification = "Sinus Rhythm"
    /// Header lines of the ECG file that identify the person and must not be stored.
    public static let ecgPersonalValues = ["Simon Example", "Jan 1, 1990"]

    // MARK: - The files

    /// The main file. Line numbers matter to the tests: keep `firstRecordEndLine` in step.
    public static var exportXML: String {
        brokenIOS16Prolog + healthDataUpToTheAudiogram + audiogram + "</HealthData>\n"
    }

    static let healthDataUpToTheAudiogram = """
        <HealthData locale="zh_CN">
         <ExportDate value="2024-03-05 09:00:00 +0100"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet"/>
         <Record type="HKQuantityTypeIdentifierDistanceWalkingRunning" sourceName="Simon’s iPhone" sourceVersion="16.1.2" device="&lt;&lt;HKDevice: 0x281038280&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,3, software:16.1.2&gt;" unit="mi" creationDate="2024-03-02 08:42:10 +0100" startDate="2024-03-02 08:21:00 +0100" endDate="2024-03-02 08:41:00 +0100" value="1.25"/>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Simon’s Apple Watch" sourceVersion="9.3" unit="ms" creationDate="2024-03-02 19:54:52 +0100" startDate="2024-03-02 19:53:50 +0100" endDate="2024-03-02 19:54:51 +0100" value="41.5">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="61" time="7:53:55,83 PM"/>
           <InstantaneousBeatsPerMinute bpm="63" time="7:53:56,79 PM"/>
           <InstantaneousBeatsPerMinute bpm="62" time="7:53:57,76 PM"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Simon’s Apple Watch" sourceVersion="9.3" unit="ms" creationDate="2024-03-03 00:21:32 +0100" startDate="2024-03-03 00:20:30 +0100" endDate="2024-03-03 00:21:31 +0100" value="38.25">
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="58" time="00:20:37,80"/>
           <InstantaneousBeatsPerMinute bpm="57" time="00:20:38,84"/>
          </HeartRateVariabilityMetadataList>
         </Record>
         <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="20" durationUnit="min" sourceName="Simon’s Apple Watch" sourceVersion="9.3" creationDate="2024-03-02 08:41:05 +0100" startDate="2024-03-02 08:21:00 +0100" endDate="2024-03-02 08:41:00 +0100">
          <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-03-02 08:21:00 +0100" endDate="2024-03-02 08:41:00 +0100" sum="1.25" unit="mi"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-02 08:21:00 +0100" endDate="2024-03-02 08:41:00 +0100" sum="85.5" unit="Cal"/>
          <WorkoutRoute sourceName="Simon’s Apple Watch" sourceVersion="9.3" creationDate="2024-03-02 08:41:10 +0100" startDate="2024-03-02 08:21:00 +0100" endDate="2024-03-02 08:39:20 +0100">
           <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>
           <FileReference path="\(routeReference)"/>
          </WorkoutRoute>
         </Workout>
         <ActivitySummary dateComponents="2024-03-02" activeEnergyBurned="412.5" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal" appleExerciseTime="31" appleExerciseTimeGoal="30" appleStandHours="10" appleStandHoursGoal="12"/>

        """

    /// An audiogram, one `SensitivityPoint` per frequency, each ear 5 dB worse at each step up.
    static var audiogram: String {
        var lines = [
            #" <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Mimi Hearing Test" sourceVersion="5.4.0""#
                + #" creationDate="2024-03-02 10:05:00 +0100" startDate="2024-03-02 09:58:00 +0100""#
                + #" endDate="2024-03-02 10:04:00 +0100">"#
        ]
        for (index, frequency) in audiogramFrequencies.enumerated() {
            lines.append(
                "  <SensitivityPoint frequencyValue=\"\(frequency)\" frequencyUnit=\"Hz\""
                    + " leftEarValue=\"\(10 + 5 * index)\" leftEarUnit=\"dBHL\""
                    + " rightEarValue=\"\(15 + 5 * index)\" rightEarUnit=\"dBHL\"/>")
        }
        lines.append(" </Audiogram>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The XML declaration and a DTD with iOS 16's three faults (export version 12): strict
    /// parsers stop at it, so the importer must skip it unread.
    static let brokenIOS16Prolog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
          <!-- HealthKit Export Version: 12 -->
          <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
          <!ATTLIST HealthData locale CDATA #REQUIRED
        >
          <!ELEMENT ExportDate EMPTY>
          <!ATTLIST ExportDate value CDATA #REQUIRED
        >
          <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
          <!ATTLIST Record
            type CDATA #REQUIRED
            unit CDATA #IMPLIED
            value CDATA #IMPLIED
        >
          <!ELEMENT VisionPrescription EMPTY>
          <!ATTLIST VisionPrescription
            type CDATA #REQUIRED
            brand CDATA #IMPLIED
          <!ELEMENT RightEye EMPTY>
          <!ATTLIST RightEye
            sphere CDATA #IMPLIED
        >
          device CDATA #IMPLIED
          <!ELEMENT MetadataEntry EMPTY>
          <!ATTLIST MetadataEntry
            key CDATA #IMPLIED
            value CDATA #IMPLIED
        >
        >
        ]>

        """

    /// The three faults of `brokenIOS16Prolog`, as text a test can look for.
    public static let dtdFaults = [
        "brand CDATA #IMPLIED\n  <!ELEMENT RightEye", "\n  device CDATA #IMPLIED\n", ">\n>\n]>",
    ]

    /// The walk's route as Apple writes it (GPX 1.1, speed and accuracy under `extensions`).
    public static var routeGPX: String {
        var points = ""
        for index in 0..<routePoints {
            let seconds = (firstRoutePointMilliseconds + Int64(index) * routePointSpacingMilliseconds) / 1000
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            points +=
                "      <trkpt lon=\"\(routeLongitude(index))\" lat=\"\(routeLatitude(index))\">"
                + "<ele>\(routeElevation(index))</ele><time>\(time)</time><extensions><speed>1.35</speed>"
                + "<course>90.5</course><hAcc>3.5</hAcc><vAcc>2.25</vAcc></extensions></trkpt>\n"
        }
        return gpxHead + points + "    </trkseg>\n  </trk>\n</gpx>\n"
    }

    static let gpxHead = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata>
            <time>2024-03-05T08:00:00Z</time>
          </metadata>
          <trk>
            <name>Route 2024-03-02 8:41am</name>
            <trkseg>

        """

    /// Point `index` of the route, as written: 0.00045° north and 0.0003° east per point.
    public static func routeLatitude(_ index: Int) -> String {
        String(format: "%.6f", 52.52 + 0.00045 * Double(index))
    }

    public static func routeLongitude(_ index: Int) -> String {
        String(format: "%.6f", 13.405 + 0.0003 * Double(index))
    }

    /// Its elevation in metres: 34.5, then 0.25 higher per point.
    public static func routeElevation(_ index: Int) -> String {
        String(format: "%.2f", 34.5 + 0.25 * Double(index))
    }

    /// An ECG recording as the Health app writes it: the person's name and birth date first.
    public static var ecgCSV: String {
        var lines = [
            "Name,\(ecgPersonalValues[0])", "Date of Birth,\"\(ecgPersonalValues[1])\"",
            "Recorded Date,2024-03-02 09:12:44 +0100", "Classification,\(ecgClassification)", "Symptoms,",
            "Software Version,1.90", "Device,\"Watch6,2\"", "Sample Rate,512 hertz", "", "Lead,Lead I",
            "Unit,µV", "",
        ]
        lines += (0..<ecgVoltages).map { String(format: "%.3f", Double((($0 * 7919) % 2001) - 1000) / 7) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The HL7 copy a real export carries beside the main file: XML, but not `<HealthData>`.
    static let clinicalDocumentCopy = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><title>Health Data</title></ClinicalDocument>

        """

    /// What a Mac puts in `__MACOSX/` for each file: an AppleDouble header, not XML.
    static let appleDouble: [UInt8] =
        [0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X".utf8)

    // MARK: - Writing

    /// The export as `export.zip`, entries in the order a Mac leaves them. With `deflate` (raw
    /// deflate, as ZIP stores it) the files are compressed; without it they are stored.
    public static func archive(deflate: (([UInt8]) -> [UInt8])? = nil) -> ZipFixtureBuilder {
        var builder = ZipFixtureBuilder()
        func add(_ name: String, _ content: [UInt8]) {
            if let deflate {
                builder.addCompressed(
                    name, compressed: deflate(content), crc32: ZipFixtureBuilder.crc32(content),
                    uncompressedSize: UInt64(content.count))
            } else {
                builder.addStored(name, content)
            }
        }
        builder.addDirectory(folderName + "/")
        add("__MACOSX/._" + folderName, appleDouble)
        add(folderName + "/" + mainFileName, Array(exportXML.utf8))
        add("__MACOSX/\(folderName)/._" + mainFileName, appleDouble)
        add(folderName + "/export_cda.xml", Array(clinicalDocumentCopy.utf8))
        builder.addDirectory(folderName + "/workout-routes/")
        add(folderName + routeReference, Array(routeGPX.utf8))
        builder.addDirectory(folderName + "/electrocardiograms/")
        add(folderName + "/electrocardiograms/" + ecgFileName, Array(ecgCSV.utf8))
        return builder
    }

    /// Writes `export.zip` at `path`.
    public static func writeZip(to path: String, deflate: (([UInt8]) -> [UInt8])? = nil) throws {
        try archive(deflate: deflate).write(to: path)
    }

    /// Writes the export unzipped into `folder` (which must exist), as the user would after
    /// double-clicking the zip, and returns the path of its `apple_health_export` folder.
    @discardableResult
    public static func writeFolder(in folder: String) throws -> String {
        let root = folder + "/" + folderName
        for sub in ["workout-routes", "electrocardiograms"] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + sub, withIntermediateDirectories: true)
        }
        try exportXML.write(toFile: root + "/" + mainFileName, atomically: true, encoding: .utf8)
        try clinicalDocumentCopy.write(toFile: root + "/export_cda.xml", atomically: true, encoding: .utf8)
        try routeGPX.write(toFile: root + routeReference, atomically: true, encoding: .utf8)
        try ecgCSV.write(
            toFile: root + "/electrocardiograms/" + ecgFileName, atomically: true, encoding: .utf8)
        return root
    }
}
