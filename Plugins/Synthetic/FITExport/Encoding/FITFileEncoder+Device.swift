extension FITFileEncoder {
    private static let fileID = FITMessageDefinition(
        "file_id", FITProfile.FileID.message,
        [
            FITFieldDefinition(FITProfile.FileID.serialNumber, .uint32z),
            FITFieldDefinition(FITProfile.FileID.timeCreated, .uint32),
            FITFieldDefinition(FITProfile.FileID.manufacturer, .uint16),
            FITFieldDefinition(FITProfile.FileID.product, .uint16),
            FITFieldDefinition(FITProfile.FileID.type, .enumeration),
        ])

    private static let deviceInfo = FITMessageDefinition(
        "device_info", FITProfile.DeviceInfo.message,
        [
            FITFieldDefinition(FITProfile.timestamp, .uint32),
            FITFieldDefinition(FITProfile.DeviceInfo.serialNumber, .uint32z),
            FITFieldDefinition(FITProfile.DeviceInfo.manufacturer, .uint16),
            FITFieldDefinition(FITProfile.DeviceInfo.product, .uint16),
            FITFieldDefinition(FITProfile.DeviceInfo.softwareVersion, .uint16),
            FITFieldDefinition(FITProfile.DeviceInfo.deviceIndex, .uint8),
        ])

    /// Defines `local` as file_id and writes it: every FIT file starts so.
    mutating func writeFileID(_ local: Int, type: Int64, device: FITDevice, created unixSeconds: Int64) {
        define(local, Self.fileID)
        write(
            local,
            [
                FITProfile.FileID.serialNumber: .int(device.serialNumber),
                FITProfile.FileID.timeCreated: .time(unixSeconds),
                FITProfile.FileID.manufacturer: .int(FITProfile.Manufacturer.garmin),
                FITProfile.FileID.product: device.product.map { .int($0) } ?? .invalid,
                FITProfile.FileID.type: .int(type),
            ])
    }

    /// Defines `local` as device_info and writes the creator's (device index 0).
    mutating func writeCreator(_ local: Int, device: FITDevice, at unixSeconds: Int64) {
        define(local, Self.deviceInfo)
        write(
            local,
            [
                FITProfile.timestamp: .time(unixSeconds),
                FITProfile.DeviceInfo.serialNumber: .int(device.serialNumber),
                FITProfile.DeviceInfo.manufacturer: .int(FITProfile.Manufacturer.garmin),
                FITProfile.DeviceInfo.product: device.product.map { .int($0) } ?? .invalid,
                FITProfile.DeviceInfo.softwareVersion: .scaled(26.10, 100),
                FITProfile.DeviceInfo.deviceIndex: .int(0),
            ])
    }
}
