import HealthETLCore

/// Names as a format writes them (quoted, escaped), prepared once per name and copied for every
/// sample that refers to it by number.
struct NameTable {
    private var written: [[UInt8]] = []

    init() {}

    init(_ names: [String], escape: (String, inout [UInt8]) -> Void) {
        written = names.map { name in
            var bytes: [UInt8] = []
            escape(name, &bytes)
            return bytes
        }
    }

    func append(_ index: Int32, to bytes: inout [UInt8]) {
        guard written.indices.contains(Int(index)) else { return }
        bytes.append(contentsOf: written[Int(index)])
    }
}
