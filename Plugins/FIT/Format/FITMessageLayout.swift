/// What a definition message says a local message type's data messages hold: the global message
/// number, the byte order, each field's place, and how many bytes developer fields add.
/// A class: every data message refers to its layout, and a reference costs one count to share.
final class FITMessageLayout: Sendable {
    let globalNumber: UInt16
    let bigEndian: Bool
    let fields: [FITFieldLayout]
    /// Bytes of a data message (fields and developer fields).
    let size: Int
    /// Field number → index in `fields` (+1; 0 for none), so a lookup costs one load.
    private let index: [UInt8]

    init(globalNumber: UInt16, bigEndian: Bool, fields: [FITFieldLayout], developerBytes: Int) {
        self.globalNumber = globalNumber
        self.bigEndian = bigEndian
        self.fields = fields
        self.size = (fields.last.map { $0.offset + $0.size } ?? 0) + developerBytes
        var index = [UInt8](repeating: 0, count: 256)
        // A field declared twice is read from its first place, as the profile's decoders do.
        for (position, field) in fields.enumerated().reversed() where position < 255 {
            index[Int(field.number)] = UInt8(position + 1)
        }
        self.index = index
    }

    func field(_ number: UInt8) -> FITFieldLayout? {
        let position = index[Int(number)]
        return position == 0 ? nil : fields[Int(position) - 1]
    }
}
