/// Apple's `device` attribute without the per-export noise.
///
/// `<<HKDevice: 0x282e3a260>, name:iPhone, manufacturer:Apple Inc., …>` embeds a memory address
/// that changes on every record and export; without it the description interns to a few rows.
enum DeviceDescription {
    private static let prefix = Array("<<HKDevice:".utf8)

    /// The bytes after the address (`name:iPhone, manufacturer:Apple Inc., …`), without copying.
    static func withoutAddress(_ value: XMLBytes) -> XMLBytes {
        let bytes = value.bytes
        guard bytes.count > prefix.count, bytes.starts(with: prefix),
            let close = bytes.firstIndex(of: UInt8(ascii: ">"))
        else { return value }
        var start = close + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: ",") || bytes[start] == UInt8(ascii: " ") {
            start += 1
        }
        var end = bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: ">") { end -= 1 }
        return XMLBytes(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
}
