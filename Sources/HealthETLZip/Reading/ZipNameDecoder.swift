/// Turns the raw bytes of an entry name into a `String`.
///
/// The ZIP format says names are CP437 unless general-purpose bit 11 marks them UTF-8, but
/// macOS's Archive Utility writes UTF-8 without setting the bit. So: the flag wins, then an
/// Info-ZIP Unicode Path extra field whose CRC still matches the name, then valid UTF-8, and only
/// then CP437.
enum ZipNameDecoder {
    static func decode(_ raw: ArraySlice<UInt8>, flags: UInt16, unicodePathField: ArraySlice<UInt8>?)
        -> String
    {
        if flags & ZipFormat.flagUTF8 != 0 {
            return String(decoding: raw, as: UTF8.self)
        }
        if let unicodePathField, let name = unicodePath(unicodePathField, for: raw) {
            return name
        }
        if let name = String(validating: raw, as: UTF8.self) {
            return name
        }
        var name = ""
        name.unicodeScalars.reserveCapacity(raw.count)
        for byte in raw {
            name.unicodeScalars.append(byte < 0x80 ? Unicode.Scalar(byte) : cp437High[Int(byte) - 0x80])
        }
        return name
    }

    /// The UTF-8 name of an Info-ZIP Unicode Path field (0x7075), if it still describes `raw`.
    private static func unicodePath(_ field: ArraySlice<UInt8>, for raw: ArraySlice<UInt8>) -> String? {
        var reader = ZipByteReader(field)
        guard let version = reader.bytes(1)?.first, version == 1, let nameCRC = reader.uint32(),
            let utf8 = reader.bytes(reader.remaining)
        else { return nil }
        guard ZipCRC32.checksum(raw) == nameCRC else { return nil }
        return String(validating: utf8, as: UTF8.self)
    }

    /// Code page 437, bytes 0x80...0xFF (the original IBM PC character set).
    private static let cp437High: [Unicode.Scalar] = Array(
        ("ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐"
            + "└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}").unicodeScalars)
}
