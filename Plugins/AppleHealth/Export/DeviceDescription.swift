/// Apple's `device` attribute without the per-export noise.
///
/// `<<HKDevice: 0x282e3a260>, name:iPhone, manufacturer:Apple Inc., …>` embeds a memory address
/// that changes on every record and export; without it the description interns to a few rows.
enum DeviceDescription {
    static func normalized(_ text: String) -> String {
        var body = Substring(text)
        if body.hasPrefix("<<HKDevice:"), let close = body.firstIndex(of: ">") {
            body = body[body.index(after: close)...]
            if body.hasPrefix(",") { body = body.dropFirst() }
            body = body.drop { $0 == " " }
            if body.hasSuffix(">") { body = body.dropLast() }
        }
        return String(body)
    }
}
