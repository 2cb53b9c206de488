import CISAL

/// ISA-L's inflate for raw deflate data (no zlib or gzip wrapper), over buffers the caller owns.
///
/// ISA-L reads its input eight bytes at a time, so when a stream ends it may have taken a few
/// bytes past it into its bit buffer. Those whole bytes are handed back (`availableInput` counts
/// them), so a reader of an archive front to back finds the next record where the stream ends,
/// as with zlib's inflate.
final class ZipInflater {
    enum Status: Equatable {
        /// Input was consumed or output produced; call again.
        case progress
        /// The deflate stream's final block is complete.
        case streamEnd
        /// Nothing more can happen until more input is supplied.
        case needsInput
        /// The data is not valid deflate; the associated value says why.
        case corrupt(String)
    }

    /// 87 KB (its tables and a window), at a fixed heap address.
    private let state: UnsafeMutablePointer<inflate_state>
    /// Compressed bytes consumed before the current input.
    private var consumedBefore: UInt64 = 0
    /// The size of the current input, as handed over.
    private var inputCount = 0

    init() {
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
    }

    deinit {
        state.deallocate()
    }

    /// Compressed bytes handed over and not yet consumed.
    var availableInput: Int { Int(state.pointee.avail_in) }

    /// Compressed bytes consumed since the start of the stream.
    var totalInput: UInt64 { consumedBefore + UInt64(inputCount - availableInput) }

    /// Hands over the next compressed bytes (at most 4 GiB); `input` must stay valid until they
    /// are consumed.
    func setInput(_ input: UnsafeMutableRawBufferPointer) {
        setInput(UnsafeRawBufferPointer(input))
    }

    /// Hands over the next compressed bytes (at most 4 GiB), which are only read; `input` must
    /// stay valid until they are consumed.
    func setInput(_ input: UnsafeRawBufferPointer) {
        consumedBefore = totalInput
        inputCount = input.count
        state.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        state.pointee.avail_in = UInt32(input.count)
    }

    /// Drops any input not yet consumed, so no pointer into it outlives the caller's buffer.
    func clearInput() {
        consumedBefore = totalInput
        inputCount = 0
        state.pointee.next_in = nil
        state.pointee.avail_in = 0
    }

    /// Starts a new deflate stream, keeping the memory of the last one.
    func reset() {
        isal_inflate_reset(state)
        consumedBefore = 0
        inputCount = 0
    }

    /// Inflates into `output` (at most 4 GiB), returning how it went and how many bytes it wrote.
    func inflate(into output: UnsafeMutableRawBufferPointer) -> (status: Status, written: Int) {
        let availableBefore = availableInput
        state.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(output.count)
        let result = isal_inflate(state)
        // Clamped: an error may leave ISA-L's counts unreliable (its input count can wrap).
        let written = output.count - min(Int(state.pointee.avail_out), output.count)
        state.pointee.next_out = nil
        state.pointee.avail_out = 0
        guard result >= 0 else {
            // After an error ISA-L's input fields are not to be trusted (its count can wrap):
            // the whole input counts as read.
            state.pointee.avail_in = 0
            clearInput()
            return (.corrupt(Self.reason(result)), written)
        }
        if state.pointee.block_state == ISAL_BLOCK_FINISH {
            handBackUnreadBytes()
            return (.streamEnd, written)
        }
        return (written > 0 || availableInput < availableBefore ? .progress : .needsInput, written)
    }

    /// Returns the whole bytes left in ISA-L's bit buffer after the stream's end to the input.
    /// They were read from the current input: every bit before the end was needed to reach it.
    /// A second call hands back nothing: fewer than eight bits are left, or none of the input.
    private func handBackUnreadBytes() {
        let consumed = inputCount - availableInput
        let unread = min(Int(state.pointee.read_in_length) / 8, consumed)
        state.pointee.next_in = state.pointee.next_in.map { $0 - unread }
        state.pointee.avail_in += UInt32(unread)
        state.pointee.read_in_length -= Int32(unread * 8)
    }

    private static func reason(_ result: Int32) -> String {
        switch result {
        case ISAL_INVALID_BLOCK: "invalid block"
        case ISAL_INVALID_SYMBOL: "invalid code"
        case ISAL_INVALID_LOOKBACK: "invalid distance too far back"
        default: "inflate error \(result)"
        }
    }
}
