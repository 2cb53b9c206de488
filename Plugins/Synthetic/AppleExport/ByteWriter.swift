/// Buffered, append-only output to one or more sinks (a file, a zip entry, or both): a fixed
/// buffer, handed on when full, so memory stays constant however large the export. Numbers and
/// dates are rendered in place with integer arithmetic.
///
/// The rendering methods do not throw, to keep the hot path lean: the first sink error is kept and
/// `finish()` throws it.
final class ByteWriter {
    private let sinks: [ByteSink]
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    private(set) var failure: String?
    /// Bytes handed to the sinks so far plus what is still buffered.
    var bytesWritten: Int64 { flushed + Int64(count) }
    private var flushed: Int64 = 0
    private var closed = false

    // "YYYY-MM-DD " of the last day rendered by `date(_:)`.
    private var cachedDay = Int.min
    private let dayPrefix = UnsafeMutablePointer<UInt8>.allocate(capacity: 11)

    /// Every sink receives the same bytes, in order.
    init(sinks: [ByteSink], capacity: Int = 1 << 22) {
        self.sinks = sinks
        self.capacity = capacity
        self.buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        dayPrefix.deallocate()
    }

    // MARK: buffer management

    @inline(__always)
    private func reserve(_ needed: Int) {
        if count + needed > capacity { flush() }
    }

    func flush() {
        emit(UnsafeRawBufferPointer(start: buffer, count: count))
        flushed += Int64(count)
        count = 0
    }

    /// Hands `bytes` to every sink; after the first failure, to none.
    private func emit(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, !bytes.isEmpty else { return }
        for sink in sinks {
            do {
                try sink.write(bytes)
            } catch {
                failure = String(describing: error)
                return
            }
        }
    }

    /// Flushes and closes every sink; throws the first error, if any.
    func finish() throws {
        flush()
        if !closed {
            closed = true
            for sink in sinks {
                do {
                    try sink.close()
                } catch {
                    if failure == nil { failure = String(describing: error) }
                }
            }
        }
        if let failure { throw GeneratorError(failure) }
    }

    // MARK: raw bytes

    @inline(__always)
    func byte(_ value: UInt8) {
        reserve(1)
        buffer[count] = value
        count += 1
    }

    @inline(__always)
    func put(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length)
        (buffer + count).update(from: text.utf8Start, count: length)
        count += length
    }

    @inline(__always)
    func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            reserve(source.count)
            (buffer + count).update(from: base, count: source.count)
            count += source.count
        }
    }

    func put(_ text: String) {
        var copy = text
        copy.withUTF8 { source in
            guard let base = source.baseAddress else { return }
            if source.count > capacity {
                flush()
                emit(UnsafeRawBufferPointer(source))
                flushed += Int64(source.count)
                return
            }
            reserve(source.count)
            (buffer + count).update(from: base, count: source.count)
            count += source.count
        }
    }

    @inline(__always)
    func spaces(_ n: Int) {
        reserve(n)
        for i in 0..<n { buffer[count + i] = 0x20 }
        count += n
    }

    // MARK: numbers

    static let powersOfTen: [Int64] = [
        1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000,
    ]

    /// Decimal integer.
    @inline(__always)
    func integer(_ value: Int64) {
        reserve(21)
        var v = value
        if v < 0 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
            v = -v
        }
        var digits = 1
        var probe = v
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var index = count + digits - 1
        repeat {
            buffer[index] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
            index -= 1
        } while v > 0
        count += digits
    }

    @inline(__always)
    func integer(_ value: Int) { integer(Int64(value)) }

    /// Exactly `width` digits, zero-padded.
    @inline(__always)
    func padded(_ value: Int64, width: Int) {
        reserve(width)
        var v = value
        var index = count + width - 1
        while index >= count {
            buffer[index] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
            index -= 1
        }
        count += width
    }

    /// `mantissa / 10^scale` the way Apple writes doubles: no trailing zeros, no trailing dot.
    @inline(__always)
    func decimal(_ mantissa: Int64, scale: Int) {
        if scale == 0 {
            integer(mantissa)
            return
        }
        var m = mantissa
        if m < 0 {
            byte(UInt8(ascii: "-"))
            m = -m
        }
        let power = ByteWriter.powersOfTen[scale]
        integer(m / power)
        var fraction = m % power
        guard fraction != 0 else { return }
        var width = scale
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        byte(UInt8(ascii: "."))
        padded(fraction, width: width)
    }

    /// `value` with exactly `scale` decimals (GPX style: trailing zeros kept).
    @inline(__always)
    func fixed(_ value: Double, scale: Int) {
        let power = ByteWriter.powersOfTen[scale]
        var m = Int64((value * Double(power)).rounded())
        if m < 0 {
            byte(UInt8(ascii: "-"))
            m = -m
        }
        integer(m / power)
        byte(UInt8(ascii: "."))
        padded(m % power, width: scale)
    }

    /// Lower-case hexadecimal, exactly `digits` wide.
    @inline(__always)
    func hex(_ value: UInt64, digits: Int, upper: Bool = false) {
        reserve(digits)
        let alphabet: UInt8 = upper ? 0x37 : 0x57  // 'A'-10 or 'a'-10
        var v = value
        var index = count + digits - 1
        while index >= count {
            let nibble = UInt8(truncatingIfNeeded: v & 0xF)
            buffer[index] = nibble < 10 ? 0x30 &+ nibble : alphabet &+ nibble
            v >>= 4
            index -= 1
        }
        count += digits
    }

    /// A UUID-shaped identifier from two random words.
    func uuid(_ high: UInt64, _ low: UInt64) {
        hex(high >> 32, digits: 8, upper: true)
        byte(UInt8(ascii: "-"))
        hex((high >> 16) & 0xFFFF, digits: 4, upper: true)
        byte(UInt8(ascii: "-"))
        hex(0x4000 | (high & 0x0FFF), digits: 4, upper: true)
        byte(UInt8(ascii: "-"))
        hex(0x8000 | ((low >> 48) & 0x3FFF), digits: 4, upper: true)
        byte(UInt8(ascii: "-"))
        hex(low & 0xFFFF_FFFF_FFFF, digits: 12, upper: true)
    }

    // MARK: dates

    /// `yyyy-MM-dd HH:mm:ss -0800`: the wall clock at the export-time offset.
    @inline(__always)
    func date(_ instant: Int64) {
        let local = instant + CivilTime.exportOffsetSeconds
        let day = Int(CivilTime.floorDiv(local, 86400))
        let second = Int(local - Int64(day) * 86400)
        if day != cachedDay { cacheDay(day) }
        reserve(25)
        (buffer + count).update(from: dayPrefix, count: 11)
        count += 11
        twoDigits(second / 3600)
        buffer[count] = UInt8(ascii: ":")
        count += 1
        twoDigits((second / 60) % 60)
        buffer[count] = UInt8(ascii: ":")
        count += 1
        twoDigits(second % 60)
        put(" -0800")
    }

    /// `2024-03-01T18:00:45Z` (GPX).
    func isoUTC(_ instant: Int64) {
        let day = Int(CivilTime.floorDiv(instant, 86400))
        let second = Int(instant - Int64(day) * 86400)
        calendarDay(day)
        byte(UInt8(ascii: "T"))
        reserve(9)
        twoDigits(second / 3600)
        buffer[count] = UInt8(ascii: ":")
        count += 1
        twoDigits((second / 60) % 60)
        buffer[count] = UInt8(ascii: ":")
        count += 1
        twoDigits(second % 60)
        byte(UInt8(ascii: "Z"))
    }

    /// `YYYY-MM-DD`.
    func calendarDay(_ day: Int) {
        let date = CivilTime.date(days: day)
        reserve(10)
        padded(Int64(date.year), width: 4)
        buffer[count] = UInt8(ascii: "-")
        count += 1
        twoDigits(date.month)
        buffer[count] = UInt8(ascii: "-")
        count += 1
        twoDigits(date.day)
    }

    /// `h:mm:ss.cc AM` — the en_US time of day Apple writes in HRV beat lists.
    func twelveHourTime(centiseconds: Int) {
        let seconds = centiseconds / 100
        let hour24 = (seconds / 3600) % 24
        var hour12 = hour24 % 12
        if hour12 == 0 { hour12 = 12 }
        reserve(16)
        integer(hour12)
        buffer[count] = UInt8(ascii: ":")
        count += 1
        twoDigits((seconds / 60) % 60)
        buffer[count] = UInt8(ascii: ":")
        count += 1
        twoDigits(seconds % 60)
        buffer[count] = UInt8(ascii: ".")
        count += 1
        twoDigits(centiseconds % 100)
        put(hour24 < 12 ? " AM" : " PM")
    }

    @inline(__always)
    private func twoDigits(_ value: Int) {
        reserve(2)
        buffer[count] = 0x30 &+ UInt8(truncatingIfNeeded: value / 10)
        buffer[count + 1] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
        count += 2
    }

    private func cacheDay(_ day: Int) {
        cachedDay = day
        let date = CivilTime.date(days: day)
        var y = date.year
        for i in stride(from: 3, through: 0, by: -1) {
            dayPrefix[i] = 0x30 &+ UInt8(truncatingIfNeeded: y % 10)
            y /= 10
        }
        dayPrefix[4] = UInt8(ascii: "-")
        dayPrefix[5] = 0x30 &+ UInt8(truncatingIfNeeded: date.month / 10)
        dayPrefix[6] = 0x30 &+ UInt8(truncatingIfNeeded: date.month % 10)
        dayPrefix[7] = UInt8(ascii: "-")
        dayPrefix[8] = 0x30 &+ UInt8(truncatingIfNeeded: date.day / 10)
        dayPrefix[9] = 0x30 &+ UInt8(truncatingIfNeeded: date.day % 10)
        dayPrefix[10] = 0x20
    }
}
