/// The points of one metric held until its name and units are both known. HAE writes a metric's
/// members in any order (`units` after `data` is common), so a point cannot always be read when
/// it arrives. The first `memoryLimit` wait in memory; the rest go to a `HAEPointSpill`, so a
/// metric of any size is read whole in bounded memory, in the order it was written.
struct HAEHeldPoints {
    /// Points held in memory before the rest are written out (a few hundred bytes each).
    static let memoryLimit = 20_000

    private var held: [JSONValue] = []
    private var spill: HAEPointSpill?

    var isEmpty: Bool { held.isEmpty }

    mutating func append(_ point: JSONValue) throws {
        guard held.count >= Self.memoryLimit else {
            held.append(point)
            return
        }
        if spill == nil { spill = try HAEPointSpill() }
        try spill?.append(point)
    }

    /// Hands on every held point in order and lets go of them.
    mutating func release(_ body: (JSONValue) throws -> Void) throws {
        let points = held
        let written = spill
        held.removeAll()
        spill = nil
        for point in points { try body(point) }
        try written?.forEach(body)
    }
}
