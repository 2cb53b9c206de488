/// Copies of bound values that stay where they are until `removeAll`, in chunks that are never
/// moved or resized: SQLite can then take them as they are (`SQLITE_STATIC`) instead of
/// allocating its own copy of each value, and freeing it, row after row.
struct KeptBytes: ~Copyable {
    /// A value larger than this is not kept (SQLite copies it).
    static let chunkSize = 16 * 1024

    private var chunks: [UnsafeMutableRawPointer] = []
    private var chunk = 0
    private var used = 0

    /// Room for `count` bytes (more than none) valid until `removeAll`, or nil when they would
    /// not fit in a chunk. The caller copies the value in.
    mutating func room(for count: Int) -> UnsafeMutableRawPointer? {
        guard count > 0, count <= Self.chunkSize else { return nil }
        if used + count > Self.chunkSize {
            chunk += 1
            used = 0
        }
        if chunk == chunks.count { chunks.append(.allocate(byteCount: Self.chunkSize, alignment: 8)) }
        let room = chunks[chunk] + used
        used += count
        return room
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
