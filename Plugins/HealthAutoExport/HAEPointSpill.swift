import Foundation

/// Points written out to a private temporary file: where a metric's points go once more of them
/// wait for their name or units than memory should hold. The file is created 0600 and unlinked at
/// once, so it is never seen by another user and never outlives the process.
final class HAEPointSpill {
    private let descriptor: Int32
    private var pending: [UInt8] = [UInt8(ascii: "[")]
    private(set) var count = 0

    /// Bytes gathered before one write.
    private static let writeSize = 1 << 16

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/healthetl-hae-points-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw HAEInputError.spill(reason: "create: \(String(cString: strerror(errno)))")
        }
        _ = fchmod(descriptor, 0o600)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func append(_ point: JSONValue) throws {
        if count > 0 { pending.append(UInt8(ascii: ",")) }
        point.appendJSON(to: &pending)
        count += 1
        if pending.count >= Self.writeSize { try flush() }
    }

    /// Reads every point back, in the order written.
    func forEach(_ body: (JSONValue) throws -> Void) throws {
        pending.append(UInt8(ascii: "]"))
        try flush()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure("seek") }
        var tokenizer = JSONTokenizer()
        var builder = JSONValueBuilder()
        var depth = 0
        var chunk = [UInt8](repeating: 0, count: Self.writeSize)
        func take(_ token: JSONToken) throws {
            // The outer array's own brackets are not points.
            if depth == 0, token == .arrayStart || token == .arrayEnd {
                depth = token == .arrayStart ? 1 : 0
                return
            }
            if let point = try builder.add(token) { try body(point) }
        }
        while true {
            let read = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            guard read >= 0 else { throw failure("read") }
            if read == 0 { break }
            try chunk.withUnsafeBytes {
                try tokenizer.feed(UnsafeRawBufferPointer(rebasing: $0.prefix(read)), emit: take)
            }
        }
        try tokenizer.finish(emit: take)
    }

    private func flush() throws {
        var offset = 0
        while offset < pending.count {
            let written = pending[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw failure("write") }
            offset += written
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func failure(_ operation: String) -> HAEInputError {
        .spill(reason: "\(operation): \(String(cString: strerror(errno)))")
    }
}
