import HealthETLCore
import HealthETLSQLite

/// Who wrote a row and how, from the columns every record table shares, selected as a
/// statement's columns 1 to 4: app, device, recording method and uuid (as hex).
struct HealthConnectOrigin {
    /// Health Connect's recording method for data the user typed in.
    static let manualEntry: Int64 = 3

    let sourceName: String
    let device: String?
    var metadata: [MetadataEntry]

    /// - Parameter uuidKey: the metadata key the uuid goes under (a series point names its
    ///   parent's uuid, which is not its own).
    init(_ rows: SQLiteStatement, provenance: HealthConnectProvenance, uuidKey: String) {
        sourceName = provenance.sourceName(app: rows.isNull(1) ? nil : rows.int64(1))
        device = rows.isNull(2) ? nil : provenance.devices[rows.int64(2)]
        var metadata = [MetadataEntry(key: uuidKey, value: rows.text(4) ?? "")]
        if !rows.isNull(3) {
            let method = rows.int64(3)
            metadata.append(MetadataEntry(key: "health_connect_recording_method", value: String(method)))
            // Typed in by hand: outranks any device in the projections, as Apple's flag does.
            if method == Self.manualEntry { metadata.append(MetadataEntry(key: "HKWasUserEntered", value: "1")) }
        }
        self.metadata = metadata
    }

    /// The columns to select for it, given the table's columns and a prefix (`p.` for a parent).
    static func columns(present: Set<String>, prefix: String = "") -> [String] {
        ["app_info_id", "device_info_id", "recording_method"].map {
            present.contains($0) ? prefix + HealthConnectTableReader.quoted($0) : "NULL"
        } + [present.contains("uuid") ? "hex(\(prefix)uuid)" : "NULL"]
    }
}
