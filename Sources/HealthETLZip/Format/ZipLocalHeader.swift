/// The fixed part of a local file header (APPNOTE 4.3.7), which precedes each entry's data and is
/// followed by the name and the extra field: the signature, then the fields the central
/// directory record repeats.
public struct ZipLocalHeader: Sendable, Equatable {
    public static let signature: UInt32 = 0x0403_4b50
    /// Bytes before the name, signature included.
    public static let size = 4 + ZipEntryFields.size

    public var fields: ZipEntryFields

    public init(_ fields: ZipEntryFields) {
        self.fields = fields
    }

    /// Appends the signature and the fixed fields; the name and the extra field go after them.
    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(Self.signature)
        fields.append(to: &bytes)
    }

    /// Reads the fields that follow the signature, which the caller has already checked.
    init?(fieldsFrom reader: inout ZipByteReader) {
        guard let fields = ZipEntryFields(from: &reader) else { return nil }
        self.init(fields)
    }
}
