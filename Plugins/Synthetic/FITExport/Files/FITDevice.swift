/// The device a file says made it (file_id and device_info): a Garmin watch, scale or blood
/// pressure monitor, with a serial number drawn from the seed.
struct FITDevice: Sendable {
    let product: Int64?
    let serialNumber: Int64

    static func watch(seed: UInt64) -> FITDevice {
        FITDevice(product: FITProfile.GarminProduct.fenix5, serialNumber: serial(seed, salt: 1))
    }

    static func scale(seed: UInt64) -> FITDevice {
        FITDevice(product: FITProfile.GarminProduct.indexSmartScale, serialNumber: serial(seed, salt: 2))
    }

    /// The profile names no Garmin blood pressure monitor, so its files leave the product out.
    static func bloodPressureMonitor(seed: UInt64) -> FITDevice {
        FITDevice(product: nil, serialNumber: serial(seed, salt: 3))
    }

    /// Ten digits, never zero (serial_number is uint32z: zero means none).
    private static func serial(_ seed: UInt64, salt: Int) -> Int64 {
        var random = SplitMix64.substream(seed: seed, kind: 0x5345_5249, index: salt)
        return 3_000_000_000 + Int64(random.next() % 1_000_000_000)
    }
}
