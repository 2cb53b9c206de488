/// The ZIP64 extended information extra field (APPNOTE 4.5.3): the 64-bit values of the fields
/// whose classic 32-bit form holds `ZipFormat.zip64Sentinel32`, only those, in this order.
public struct Zip64ExtraField: Sendable, Equatable {
    public var uncompressedSize: UInt64?
    public var compressedSize: UInt64?
    public var localHeaderOffset: UInt64?

    public init(
        uncompressedSize: UInt64? = nil, compressedSize: UInt64? = nil, localHeaderOffset: UInt64? = nil
    ) {
        self.uncompressedSize = uncompressedSize
        self.compressedSize = compressedSize
        self.localHeaderOffset = localHeaderOffset
    }

    /// Whether the field has anything to hold.
    public var isEmpty: Bool { uncompressedSize == nil && compressedSize == nil && localHeaderOffset == nil }

    /// Appends the field with its header.
    public func append(to bytes: inout [UInt8]) {
        let values = [uncompressedSize, compressedSize, localHeaderOffset].compactMap { $0 }
        bytes.appendLittleEndian(ZipFormat.zip64ExtraFieldID)
        bytes.appendLittleEndian(UInt16(8 * values.count))
        for value in values { bytes.appendLittleEndian(value) }
    }

    /// Reads the values a header defers to this field from its data (without the field's header).
    /// - Returns: nil when the data is too short for them.
    init?(
        _ data: ArraySlice<UInt8>, hasUncompressedSize: Bool, hasCompressedSize: Bool,
        hasLocalHeaderOffset: Bool
    ) {
        var reader = ZipByteReader(data)
        var field = Zip64ExtraField()
        if hasUncompressedSize {
            guard let value = reader.uint64() else { return nil }
            field.uncompressedSize = value
        }
        if hasCompressedSize {
            guard let value = reader.uint64() else { return nil }
            field.compressedSize = value
        }
        if hasLocalHeaderOffset {
            guard let value = reader.uint64() else { return nil }
            field.localHeaderOffset = value
        }
        self = field
    }
}
