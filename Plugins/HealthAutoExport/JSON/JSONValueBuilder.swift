/// Builds `JSONValue`s from a run of tokens, one item at a time, within a limit on its size so
/// that one item of a hostile file cannot take unbounded memory.
struct JSONValueBuilder {
    /// An open container. Plain stored arrays, appended to in place (an enum payload would be
    /// copied on every append).
    private struct Frame {
        var isObject: Bool
        var members: [(key: String, value: JSONValue)] = []
        var items: [JSONValue] = []
        var pendingKey = ""
    }

    /// Tokens one item may hold.
    let maximumTokens: Int
    private var frames: [Frame] = []
    private var tokens = 0

    init(maximumTokens: Int = 1 << 20) {
        self.maximumTokens = maximumTokens
    }

    var isBuilding: Bool { !frames.isEmpty }

    /// Takes the next token; returns the value once the item it began is whole.
    mutating func add(_ token: JSONToken) throws -> JSONValue? {
        tokens += 1
        guard tokens <= maximumTokens else {
            throw JSONStreamError(
                kind: .limit, byteOffset: -1, message: "one item of more than \(maximumTokens) JSON tokens")
        }
        switch token {
        case .objectStart:
            frames.append(Frame(isObject: true))
            return nil
        case .arrayStart:
            frames.append(Frame(isObject: false))
            return nil
        case .key(let key):
            if !frames.isEmpty { frames[frames.count - 1].pendingKey = key }
            return nil
        case .objectEnd, .arrayEnd:
            guard let frame = frames.popLast() else { return nil }
            return place(frame.isObject ? .object(frame.members) : .array(frame.items))
        case .string(let text): return place(.string(text))
        case .number(let text): return place(.number(text))
        case .bool(let flag): return place(.bool(flag))
        case .null: return place(.null)
        }
    }

    /// Puts a finished value into its container, or hands it back when it is the item itself.
    private mutating func place(_ value: JSONValue) -> JSONValue? {
        guard !frames.isEmpty else {
            tokens = 0
            return value
        }
        let top = frames.count - 1
        if frames[top].isObject {
            frames[top].members.append((frames[top].pendingKey, value))
        } else {
            frames[top].items.append(value)
        }
        return nil
    }
}
