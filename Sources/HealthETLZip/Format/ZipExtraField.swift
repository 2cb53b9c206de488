/// One field of a header's extra field (APPNOTE 4.5.1): a 16-bit id, a 16-bit length, the data.
public struct ZipExtraField: Sendable, Equatable {
    public var id: UInt16
    public var data: ArraySlice<UInt8>

    public init(id: UInt16, data: ArraySlice<UInt8>) {
        self.id = id
        self.data = data
    }

    public init(id: UInt16, data: [UInt8]) {
        self.init(id: id, data: data[...])
    }

    /// Appends the id, the length and the data.
    public func append(to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(id)
        bytes.appendLittleEndian(UInt16(data.count))
        bytes.append(contentsOf: data)
    }

    /// The fields of an extra field, in order; a field whose length runs past the end ends them.
    struct Fields: Sequence, IteratorProtocol {
        private var reader: ZipByteReader

        init(_ extra: ArraySlice<UInt8>) {
            reader = ZipByteReader(extra)
        }

        mutating func next() -> ZipExtraField? {
            guard let id = reader.uint16(), let length = reader.uint16(), let data = reader.bytes(Int(length))
            else { return nil }
            return ZipExtraField(id: id, data: data)
        }
    }
}
