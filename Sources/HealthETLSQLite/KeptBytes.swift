/// Copies of bound values that stay where they are until `removeAll`, in chunks that are never
/// moved or resized: SQLite can then take them as they are (`SQLITE_STATIC`) instead of
/// allocating its own copy of each value, and freeing it, row after row.
struct KeptBytes: ~Copyable {
    /// A value larger than this is not kept (SQLite copies it).
    static let chunkSize = 16 * 1024

    private var chunks: [UnsafeMutableRawPointer] = []
    private var chunk = 0
    private var used = 0

    /// A copy of `bytes` (not empty) valid until `removeAll`, or nil when it is larger than a chunk.
    mutating func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer? {
        guard let source = bytes.baseAddress, bytes.count <= Self.chunkSize else { return nil }
        if used + bytes.count > Self.chunkSize {
            chunk += 1
            used = 0
        }
        if chunk == chunks.count { chunks.append(.allocate(byteCount: Self.chunkSize, alignment: 8)) }
        let copy = chunks[chunk] + used
        copy.copyMemory(from: source, byteCount: bytes.count)
        used += bytes.count
        return UnsafeRawPointer(copy)
    }

    /// Makes every chunk free for reuse; nothing bound may point into them any more.
    mutating func removeAll() {
        chunk = 0
        used = 0
    }

    deinit {
        for memory in chunks { memory.deallocate() }
    }
}
