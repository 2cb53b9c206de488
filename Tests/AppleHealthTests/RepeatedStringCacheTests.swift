import Testing

@testable import AppleHealth

/// A repeated value reuses one string, for a while: then it is made again, so that the records
/// of one batch and of the next share few strings (and reference counts) between two threads.
@Suite struct RepeatedStringCacheTests {
    /// Where a string's bytes are stored (large strings only: small ones are stored inline).
    func storage(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    func read(_ text: String, with cache: inout RepeatedStringCache) -> String {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { cache.string(for: XMLBytes(UnsafeBufferPointer($0))) }
    }

    @Test func aRepeatedValueSharesOneStringUntilItIsMadeAgain() {
        var cache = RepeatedStringCache()
        let value = "HKQuantityTypeIdentifierHeartRate"
        let first = read(value, with: &cache)
        var shared = 0
        for _ in 0..<(2 * RepeatedStringCache.reusesPerString) {
            let again = read(value, with: &cache)
            #expect(again == value)
            if storage(again) == storage(first) { shared += 1 }
        }
        #expect(storage(first) != nil)
        #expect(shared == RepeatedStringCache.reusesPerString)
    }

    @Test func valuesTakingTurnsEachKeepTheirString() {
        var cache = RepeatedStringCache()
        let watch = "Simon’s Apple Watch, Watch6,2"
        let phone = "Simon’s iPhone 15 Pro, iPhone16,1"
        let first = (read(watch, with: &cache), read(phone, with: &cache))
        for _ in 0..<10 {
            let again = (read(watch, with: &cache), read(phone, with: &cache))
            #expect(again == (watch, phone))
            #expect(storage(again.0) == storage(first.0))
            #expect(storage(again.1) == storage(first.1))
        }
        #expect(storage(first.0) != nil && storage(first.0) != storage(first.1))
    }

    @Test func aValueOutOfTheLastFewIsMadeAgain() {
        var cache = RepeatedStringCache()
        let first = read("HKQuantityTypeIdentifierStepCount", with: &cache)
        for other in 0..<RepeatedStringCache.capacity {
            #expect(
                read("HKQuantityTypeIdentifierHeartRate\(other)", with: &cache)
                    == "HKQuantityTypeIdentifierHeartRate\(other)")
        }
        let again = read("HKQuantityTypeIdentifierStepCount", with: &cache)
        #expect(again == first)
        #expect(storage(again) != storage(first))
    }

    @Test func anotherValueIsReadAgain() {
        var cache = RepeatedStringCache()
        #expect(read("Simon’s Apple Watch", with: &cache) == "Simon’s Apple Watch")
        #expect(read("Simon’s iPhone 15 Pro", with: &cache) == "Simon’s iPhone 15 Pro")
        #expect(read("", with: &cache) == "")
        #expect(read("Simon’s Apple Watch", with: &cache) == "Simon’s Apple Watch")
    }
}
