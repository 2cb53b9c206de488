import HealthETLCore

/// A small JSON value built from tokens: an item of an HAE file (a point, a workout) once whole.
enum JSONValue: Equatable, Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// As written.
    case number(String)
    case bool(Bool)
    case null

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let left), .array(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.null, .null): true
        default: false
        }
    }

    /// An object's first member named `key`.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var text: String? {
        switch self {
        case .string(let text), .number(let text): text
        default: nil
        }
    }
}

extension JSONValue {
    /// Appends the value as compact JSON text: how held points are written out, read back by
    /// `JSONTokenizer` unchanged (numbers as written, strings escaped by the one escaper).
    func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                item.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): JSONText.appendQuoted(text, to: &bytes)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }
}
