import HealthETLCore

/// The one `Patient` every exported Observation refers to: a placeholder, because the store
/// holds no personal data, and none is invented.
public enum FHIRPatient {
    public static let id = "healthetl-subject"
    /// The fixed UUID of its bundle entry (`urn:uuid:…`).
    public static let uuid = "00000000-0000-4000-8000-000000000001"

    public static func appendResource(to bytes: inout [UInt8]) {
        ByteText.append(
            """
            {"resourceType":"Patient","id":"\(id)","text":{"status":"generated","div":"<div xmlns=\\"http://www.w3.org/1999/xhtml\\">The person these observations are about. healthetl exports no personal data: fill in this record where the receiver needs it.</div>"}}
            """, to: &bytes)
    }
}
