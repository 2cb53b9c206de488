/// A global message as one file lays it out: which fields, in what order and byte order. A
/// definition message carries it once; the data messages that follow hold only values.
struct FITMessageDefinition: Sendable {
    /// The profile's name for the message (fitdecode's too): the key the summary counts under.
    let name: String
    let number: UInt16
    let fields: [FITFieldDefinition]
    /// Multi-byte values (and the message number) in big-endian order; devices may use either.
    let bigEndian: Bool

    init(_ name: String, _ number: UInt16, _ fields: [FITFieldDefinition], bigEndian: Bool = false) {
        self.name = name
        self.number = number
        self.fields = fields
        self.bigEndian = bigEndian
    }
}
