import MCP

/// JSON bytes as the SDK's `Value`, read directly. Decoding through `Value`'s own `Decodable`
/// tries every type in turn for each value and runs a regular expression over every string
/// (looking for data URLs): on a year of daily figures that was most of a call's time.
enum ValueJSON {
    struct Malformed: Error {}

    static func parse(_ bytes: [UInt8]) throws -> Value {
        var reader = Reader(bytes: bytes)
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw Malformed() }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() throws -> Value {
            skipSpace()
            guard index < bytes.count else { throw Malformed() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        private mutating func literal(_ word: String, _ value: Value) throws -> Value {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected
            else { throw Malformed() }
            index += expected.count
            return value
        }

        private mutating func object() throws -> Value {
            index += 1
            var members: [String: Value] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
                index += 1
                members[key] = try value()
                skipSpace()
                guard index < bytes.count else { throw Malformed() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw Malformed() }
            }
        }

        private mutating func array() throws -> Value {
            index += 1
            var elements: [Value] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try value())
                skipSpace()
                guard index < bytes.count else { throw Malformed() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(elements) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw Malformed() }
            }
        }

        private mutating func string() throws -> String {
            index += 1
            var scalars: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: scalars, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw Malformed() }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "u"): scalars += try unicode()
                    default: scalars.append(escaped)  // \" \\ \/
                    }
                default: scalars.append(byte)
                }
            }
            throw Malformed()
        }

        /// `\uXXXX`, with a surrogate pair's second half, as UTF-8.
        private mutating func unicode() throws -> [UInt8] {
            var code = try hex()
            if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let low = try hex()
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { return Array("\u{FFFD}".utf8) }
            return Array(String(Character(scalar)).utf8)
        }

        private mutating func hex() throws -> UInt32 {
            guard index + 4 <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw Malformed() }
            index += 4
            return code
        }

        private mutating func number() throws -> Value {
            let start = index
            var integral = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    integral = false
                } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || (0x30...0x39).contains(byte)) {
                    break
                }
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let number = Int(text) { return .int(number) }
            guard let number = Double(text) else { throw Malformed() }
            return .double(number)
        }
    }
}
